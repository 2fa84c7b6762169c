#include "app/daemon.h"

#include <unistd.h>

#include "app/database_dir.h"
#include "app/privileges.h"
#include "base/log.h"
#include "base/replay_command_runner.h"
#include "http/server.h"
#include "inventory/inventory.h"
#include "sched/discovery.h"
#include "store/store.h"

namespace dp {
namespace {

// Says which restart-only keys changed between two configurations.
std::vector<std::string> RestartOnlyChanges(const Config& a, const Config& b) {
  std::vector<std::string> keys;
  if (a.listen != b.listen) keys.push_back("listen");
  if (a.database != b.database) keys.push_back("database");
  if (a.pidfile != b.pidfile) keys.push_back("pidfile");
  if (a.user != b.user) keys.push_back("user");
  if (a.tls.cert_file != b.tls.cert_file || a.tls.key_file != b.tls.key_file)
    keys.push_back("tls");
  return keys;
}

}  // namespace

void Daemon::ConfigureLogging(const Config& config, const DaemonOptions& options) {
  auto level = ParseLogLevel(config.log_level);
  bool syslog = config.log_target == "syslog" || !options.foreground;
  dp::ConfigureLogging(level.ok() ? *level : LogLevel::kInfo,
                       syslog ? LogTarget::kSyslog : LogTarget::kStderr, "diskpulsed");
}

Daemon::Daemon(Config config, DaemonOptions options)
    : config_(std::move(config)), options_(options), started_at_(clock_.Now()) {}

Daemon::~Daemon() { Stop(); }

Result<std::unique_ptr<Daemon>> Daemon::Create(Config config, DaemonOptions options) {
  std::unique_ptr<Daemon> d(new Daemon(std::move(config), options));
  const Config& c = d->config_;

  DP_RETURN_IF_ERROR(PrepareDatabaseDirectory(c.database));
  std::string lock_path = c.database + ".lock";
  auto lock = LockFile::Acquire(lock_path, /*remove_on_release=*/false);
  if (!lock.ok()) {
    if (lock.status().code() == StatusCode::kAlreadyExists)
      return AlreadyExists("database " + c.database + " is in use by another diskpulsed (" +
                           lock.status().message() + ")");
    return lock.status().WithContext("cannot lock the database");
  }
  d->database_lock_ = std::move(lock).value();
  DP_RETURN_IF_ERROR(d->database_lock_->WritePid(::getpid()));

  if (!c.pidfile.empty()) {
    auto pidfile = LockFile::Acquire(c.pidfile, /*remove_on_release=*/true);
    if (!pidfile.ok()) {
      if (pidfile.status().code() == StatusCode::kAlreadyExists)
        return AlreadyExists("diskpulsed is already running: pidfile " +
                             pidfile.status().message());
      return pidfile.status().WithContext("cannot create the pidfile");
    }
    d->pidfile_ = std::move(pidfile).value();
  }

  DP_ASSIGN_OR_RETURN(d->store_, Store::Open(c.database));
  DP_ASSIGN_OR_RETURN(std::string check, d->store_->QuickCheck());
  if (check != "ok")
    return Corrupt("database " + c.database + " failed its integrity check: " + check);

  // Discovery (drives, pools, SMART) through real tools, or a recording.
  if (std::string replay = c.replay_dir; !replay.empty()) {
    auto runner = ReplayCommandRunner::Load(replay);
    if (!runner.ok()) return runner.status().WithContext("cannot replay " + replay);
    d->runner_ = std::move(runner).value();
    d->config_ = ConfigForReplay(d->config_, replay);
    LogInfo("replaying the recording in " + replay + "; no tool is run");
  } else {
    d->runner_ = std::make_unique<PosixCommandRunner>();
  }
  d->discovery_ = std::make_unique<DiscoveryService>(d->config_, *d->runner_, *d->store_, d->clock_);

  auto router = http::BuildApiRouter(d->MakeApiContext());
  DP_ASSIGN_OR_RETURN(d->server_, http::Server::Bind(http::ServerOptionsFromConfig(c), router));
  return d;
}

http::ApiContext Daemon::MakeApiContext() const {
  http::ApiContext ctx;
  ctx.store = store_.get();
  ctx.clock = &clock_;
  ctx.started_at = started_at_;
  ctx.webui_root = config_.webui_root;
  ctx.api_token = config_.api_token;
  return ctx;
}

Status Daemon::Start() {
  if (pidfile_) DP_RETURN_IF_ERROR(pidfile_->WritePid(::getpid()));
  DP_RETURN_IF_ERROR(database_lock_->WritePid(::getpid()));
  if (!config_.user.empty()) {
    const std::string& db = config_.database;
    DP_RETURN_IF_ERROR(DropPrivileges(
        config_.user, {DatabaseDirectory(db), db, db + "-wal", db + "-shm", db + ".lock"}));
    LogInfo("running as user " + config_.user);
  }
  server_->Start();
  LogInfo("serving " + url() + " (database " + config_.database + ")");
  discovery_->Start();  // first pass now, then every inventory.interval_seconds
  return Status::Ok();
}

Status Daemon::Reload() {
  auto loaded = LoadConfigFile(config_.source);
  if (!loaded.ok()) return loaded.status();
  Config next = std::move(loaded).value();
  for (const std::string& key : RestartOnlyChanges(config_, next))
    LogWarning("reload: '" + key + "' changed; restart diskpulsed to apply it");
  // Keep what only a restart can change, so config_ says what is in effect.
  next.listen = config_.listen;
  next.listen_host = config_.listen_host;
  next.listen_port = config_.listen_port;
  next.database = config_.database;
  next.pidfile = config_.pidfile;
  next.user = config_.user;
  next.tls = config_.tls;

  ConfigureLogging(next, options_);
  config_ = std::move(next);
  if (server_)
    server_->Reconfigure(http::BuildApiRouter(MakeApiContext()),
                         http::HttpLimitsFromConfig(config_.http));
  return Status::Ok();
}

void Daemon::Stop() {
  // Reverse order of construction: nothing serves, then nothing writes, then
  // the database closes, then the locks go.
  if (server_) {
    server_->Stop();
    server_.reset();
  }
  if (discovery_) {
    discovery_->Stop();
    discovery_.reset();
  }
  store_.reset();
  pidfile_.reset();
  database_lock_.reset();
}

std::string Daemon::url() const { return server_ ? server_->url() : std::string(); }

}  // namespace dp
