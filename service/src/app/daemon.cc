#include "app/first_start_token.h"
#include "app/daemon.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "alert/alert_dispatcher.h"
#include "alert/alert_service.h"
#include "alert/notification_outbox.h"
#include "alert/mqtt_sink.h"
#include "alert/mqtt_state_publisher.h"
#include "alert/sink_factory.h"
#include "app/database_dir.h"
#include "app/priv_client.h"
#include "app/priv_helper.h"
#include "app/privileges.h"
#include "app/retention_task.h"
#include "base/log.h"
#include "base/replay_command_runner.h"
#include "bench/block_device.h"
#include "config/reload_keys.h"
#include "config/secret_files.h"
#include "detect/pool_detector.h"
#include "model/condition.h"
#include "http/server.h"
#include "inventory/inventory.h"
#include "runs/device_job_executor.h"
#include "watch/device_state_probe.h"
#include "watch/discovery.h"
#include "runs/mqtt_snapshot.h"
#include "runs/override_book.h"
#include "watch/health_checks.h"
#include "watch/presence_watch.h"
#include "runs/run_evaluator.h"
#include "runs/store_alert_repository.h"
#include "runs/store_notification_outbox.h"
#include "runs/store_scheduler_store.h"
#include "watch/zfs_sampling_task.h"
#include "sched/scheduler.h"
#include "store/store.h"

namespace dp {
namespace {

void WarnOfReadableSecrets(const Config& c) {
  for (const std::string& w : WorldReadableSecretWarnings(c)) LogWarning("config: " + w);
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
  WarnOfReadableSecrets(c);

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
  // Beyond loopback with no token, every read would be refused: the first
  // start makes one and keeps it beside the database (app/first_start_token.h).
  DP_ASSIGN_OR_RETURN(d->first_token_, TakeFirstStartToken(d->config_));

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
  d->store_->WatchWith(&d->heartbeats_.Add("database"));
  DP_ASSIGN_OR_RETURN(std::string check, d->store_->QuickCheck());
  if (check != "ok")
    return Corrupt("database " + c.database + " failed its integrity check: " + check);

  // An override naming a drive the database has never seen is a typo (or a
  // drive long gone): refused like any error of the file. A database that
  // knows no drive yet (the first start) cannot tell; discovery's first
  // pass logs what still matches nothing.
  DP_ASSIGN_OR_RETURN(std::vector<Drive> known, d->store_->ListDrives());
  if (!known.empty()) {
    std::vector<std::string> unknown = UnknownDriveProblems(c.overrides, known);
    if (!unknown.empty()) {
      std::string all;
      for (const auto& line : unknown) all += (all.empty() ? "" : "\n") + line;
      return InvalidArgument(all);
    }
  }
  d->overrides_ = std::make_unique<OverrideBook>(*d->store_, d->clock_, c.overrides);
  d->LogOverrideWarnings();

  // Privilege separation: with `user` set and started as root, device opens
  // and tools go through the root helper that Start() forks; not as root,
  // DropPrivileges decides (already that user, or refused) as before.
  if (!c.user.empty() && ::geteuid() == 0) {
    d->priv_channel_ = std::make_unique<PrivChannel>();
    d->local_runner_ = std::make_unique<PosixCommandRunner>();
  }

  // Discovery (drives, pools, SMART) through real tools, or a recording.
  if (std::string replay = c.replay_dir; !replay.empty()) {
    auto runner = ReplayCommandRunner::Load(replay);
    if (!runner.ok()) return runner.status().WithContext("cannot replay " + replay);
    d->runner_ = std::move(runner).value();
    d->config_ = ConfigForReplay(d->config_, replay);
    LogInfo("replaying the recording in " + replay + "; no tool is run");
  } else if (d->priv_channel_) {
    d->runner_ = std::make_unique<PrivilegedCommandRunner>(*d->priv_channel_,
                                                           ToolPolicy::FromConfig(c.tools));
  } else {
    d->runner_ = std::make_unique<PosixCommandRunner>();
  }
  DP_RETURN_IF_ERROR(d->BuildSchedulerAndAlerts());
  Daemon* self = d.get();
  d->discovery_ = std::make_unique<DiscoveryService>(
      d->config_, *d->runner_, *d->store_, d->clock_,
      [self](const DiscoveryReport& report) { self->OnDiscovery(report); }, d->alerts_.get());
  // A change the presence look saw is acted on by a whole discovery pass, so
  // the drive or pool goes through exactly what the hourly pass does to it.
  d->presence_ = std::make_unique<PresenceWatch>(
      d->config_, *d->runner_, d->clock_,
      [self](const std::vector<std::string>&) { self->discovery_->RequestRun(); },
      [self](const PresenceLook& look) { self->OnPresenceLook(look); });

  d->retention_ = std::make_unique<RetentionTask>(*d->store_, d->clock_, c.retention);
  // zpool iostat -l takes 5 s per pool: its own thread, not discovery's.
  d->zfs_sampling_ =
      std::make_unique<ZfsSamplingTask>(d->config_, *d->runner_, *d->store_, d->clock_,
                                        std::chrono::minutes(c.inventory.zfs_sample_minutes),
                                        [self](const std::vector<Verdict>& verdicts) {
                                          if (!self->alerts_) return;
                                          Status s = self->alerts_->OnVerdicts(verdicts);
                                          if (!s.ok())
                                            LogError("alerts: zfs sampling: " + s.ToString());
                                        });

  auto router = http::BuildApiRouter(d->MakeApiContext());
  DP_ASSIGN_OR_RETURN(d->server_, http::Server::Bind(http::ServerOptionsFromConfig(c), router));
  d->url_ = d->server_->url();
  return d;
}

http::ApiContext Daemon::MakeApiContext() const {
  http::ApiContext ctx;
  ctx.store = store_.get();
  ctx.clock = &clock_;
  ctx.started_at = started_at_;
  ctx.webui_root = config_.webui_root;
  ctx.api_token = config_.api_token;
  ctx.read_token = config_.read_token;
  ctx.metrics_token = config_.metrics_token;
  ctx.reads_need_token = ReadsNeedToken(config_);
  if (ctx.reads_need_token && config_.api_token.empty() && config_.read_token.empty())
    LogWarning("http: listening on " + config_.listen_host +
               " with no api_token or read_token: the API answers no reads (403); set one, "
               "or \"public_read\": true");
  ctx.scheduler = scheduler_.get();
  ctx.alerts = alerts_.get();
  ctx.dispatcher = dispatcher_.get();
  ctx.discovery = discovery_.get();
  ctx.overrides = overrides_.get();
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) ctx.host = host;
  ctx.schedules = config_.schedule_list;
  ctx.detection = config_.alerts_config.detection;
  return ctx;
}

Status Daemon::BuildSchedulerAndAlerts() {
  const Config& c = config_;
  // Alerts: kept in the store, sent off-thread by the dispatcher's sinks.
  alert_repo_ = std::make_unique<StoreAlertRepository>(*store_);
  // Notifications owed to a sink survive a crash or a stop in the store's
  // outbox and are sent after the next start.
  outbox_ = std::make_unique<StoreNotificationOutbox>(*store_, clock_);
  dispatcher_ = std::make_unique<AlertDispatcher>();
  dispatcher_->SetOutbox(outbox_.get());
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  DP_RETURN_IF_ERROR(AddConfiguredSinks(*dispatcher_, c.alerts_config,
                                        local_runner_ ? *local_runner_ : *runner_, host, &mqtt_));
  mqtt_state_ =
      std::make_unique<MqttStatePublisher>(mqtt_, [this] { return MqttSnapshotNow(); });
  AlertServiceOptions alert_options;
  alert_options.policy = AlertPolicy::FromConfig(c.alerts_config);
  alert_options.notify = c.alerts_config.enabled;
  alert_options.host = host;
  alert_options.muted_until = [book = overrides_.get()](const std::string& drive_id,
                                                        const std::string& condition) {
    return book->MutedUntil(drive_id, condition);
  };
  if (!mqtt_.empty()) {
    alert_options.on_change = [state = mqtt_state_.get()] { state->Changed(); };
    overrides_->OnChange([state = mqtt_state_.get()] { state->Changed(); });
  }
  alerts_ = std::make_unique<AlertService>(*alert_repo_, dispatcher_.get(), clock_, alert_options);

  // The scheduler and what it drives.
  if (priv_channel_) opener_ = std::make_unique<PrivilegedDeviceOpener>(*priv_channel_);
  else opener_ = std::make_unique<PosixDeviceOpener>();
  sched_store_ = std::make_unique<StoreSchedulerStore>(*store_);
  if (options_.make_executor) executor_ = options_.make_executor(*store_, clock_);
  else executor_ = std::make_unique<DeviceJobExecutor>(c, *runner_, *store_, clock_, *opener_);
  if (options_.make_probe) probe_ = options_.make_probe();
  else probe_ = std::make_unique<DeviceStateProbe>(c, *runner_, *store_, *opener_);
  evaluator_ = std::make_unique<RunEvaluator>(
      *store_, alerts_.get(), c.alerts_config.detection,
      [this, delay = c.alerts_config.detection.retest_delay_minutes](
          const std::string& drive_id, const std::string& test, std::int64_t of_run) {
        RunRequest req;
        req.target = drive_id;
        req.test = test;
        req.trigger = ConfirmTrigger(of_run);
        req.delay = std::chrono::minutes(delay);
        auto id = scheduler_->RunNow(req);
        if (id.ok())
          LogInfo("detect: confirmation re-test of run " + std::to_string(of_run) +
                  " queued as run " + std::to_string(*id) + " (" + test + " on " + drive_id +
                  ", in " + std::to_string(delay) + " min)");
        else
          LogWarning("detect: cannot queue a confirmation re-test: " + id.status().ToString());
      },
      overrides_.get());
  SchedulerOptions options;
  options.heartbeat = &heartbeats_.Add("scheduler");
  options.on_run_finished = [this, evaluating = &heartbeats_.Add("evaluator")](const Run& run) {
    evaluating->Begin();
    auto verdicts = evaluator_->Evaluate(run);
    evaluating->End();
    if (!verdicts.ok())
      LogError("detect: run " + std::to_string(run.id) + ": " + verdicts.status().ToString());
  };
  scheduler_ = std::make_unique<Scheduler>(clock_, *sched_store_, *executor_, *probe_,
                                           c.schedule_list, c.scheduler, options);
  return Status::Ok();
}

void Daemon::OnDiscovery(const DiscoveryReport& report) {
  if (scheduler_) scheduler_->UpdateInventory(report.drives, report.pools);
  if (options_.on_status) options_.on_status(StatusLine(report));
  // ZFS's own view of the members between tests, on its own cadence.
  if (zfs_sampling_) zfs_sampling_->UpdatePools(report.pools);
  if (!alerts_) return;
  // ZFS error counters and member states of each pool.
  for (const auto& pool : report.pools) {
    Status s = alerts_->OnVerdicts(detect::EvaluatePool(pool, nullptr, report.at));
    if (!s.ok()) LogError("alerts: pool " + pool.name + ": " + s.ToString());
  }
  // Drives gone, pools not ONLINE, scrubs, SSD wear and self-tests.
  if (Status h = ApplyHealth(*store_, *alerts_, report.pools, report.pools_problem.empty(),
                             report.at, config_.alerts_config.detection,
                             config_.inventory.exclude);
      !h.ok())
    LogError("alerts: health checks: " + h.ToString());
  // Peer cycles whose window closed without every member's run.
  if (evaluator_)
    if (auto peers = evaluator_->JudgePeers("", report.at); !peers.ok())
      LogError("detect: peers: " + peers.status().ToString());
  Status s = alerts_->CheckReminders();
  if (!s.ok()) LogError("alerts: reminders: " + s.ToString());
  if (overrides_ && !overrides_->from_config().empty()) {
    auto known = store_->ListDrives();
    if (known.ok())
      for (const auto& line : UnknownDriveProblems(overrides_->from_config(), *known))
        LogWarning("overrides: " + line);
  }
  // Presence, temperature and pool health may have changed; a mute may have
  // run out.
  if (mqtt_state_) mqtt_state_->Changed();
}

Result<MqttSnapshot> Daemon::MqttSnapshotNow() {
  return MqttSnapshotOf(*store_, overrides_.get());
}

void Daemon::OnPresenceLook(const PresenceLook& look) {
  if (!alerts_ || !look.disks_read) return;
  // A drive discovery marked gone gets its alert once it has been gone past
  // the grace; one the kernel lists again is left to the discovery pass this
  // look has started, which marks it present.
  if (Status s = ApplyMissing(*store_, *alerts_, look.at, config_.alerts_config.detection,
                              config_.inventory.exclude, look.disks);
      !s.ok())
    LogError("alerts: presence: " + s.ToString());
}

Status Daemon::Start() {
  if (pidfile_) DP_RETURN_IF_ERROR(pidfile_->WritePid(::getpid()));
  DP_RETURN_IF_ERROR(database_lock_->WritePid(::getpid()));
  if (priv_channel_) {
    // Before any thread exists and while still root (OpenBSD-style privsep).
    DP_ASSIGN_OR_RETURN(PrivHelperProcess helper,
                        StartPrivHelper(ToolPolicy::FromConfig(config_.tools)));
    priv_channel_->Attach(helper.fd);
    priv_helper_pid_ = helper.pid;
    LogInfo("privileged helper running as root (pid " + std::to_string(helper.pid) +
            "): read-only device opens and " + config_.tools.smartctl + "/" +
            config_.tools.zpool + " runs only");
  }
  if (!config_.user.empty()) {
    const std::string& db = config_.database;
    DP_RETURN_IF_ERROR(DropPrivileges(
        config_.user, {DatabaseDirectory(db), db, db + "-wal", db + "-shm", db + ".lock"}));
    LogInfo("running as user " + config_.user);
  }
  server_->Start(&heartbeats_.Add("http server"));
  LogInfo("serving " + url() + " (database " + config_.database + ")");
  dispatcher_->Start();
  DP_RETURN_IF_ERROR(scheduler_->Start());  // gets its inventory from the first discovery pass
  // Discovery's first pass now, then every inventory.interval_seconds.
  if (options_.discovery) discovery_->Start();
  // Then a look every inventory.presence_interval_seconds (0 = none).
  if (options_.discovery) presence_->Start();
  retention_->Start();  // first pass now, then every retention.interval_hours
  // "online" and the state as stored, before discovery's first pass ends.
  if (mqtt_state_) {
    mqtt_state_->Start();
    mqtt_state_->Changed();
  }
  zfs_sampling_->Start();  // after discovery's first pass, then every zfs_sample_minutes
  return Status::Ok();
}

Status Daemon::Reload() {
  auto loaded = LoadConfigFile(config_.source);
  if (!loaded.ok()) return loaded.status();
  Config next = std::move(loaded).value();
  WarnOfReadableSecrets(next);
  for (const std::string& key : RestartOnlyChanges(config_, next))
    LogWarning("reload: '" + key + "' changed; restart diskpulsed to apply it");
  // Keep what only a restart can change, so config_ says what is in effect.
  KeepRestartOnly(config_, next);

  ConfigureLogging(next, options_);
  // The kept token stays in force until the file sets a token of its own.
  if (first_token_ && next.api_token.empty() && next.read_token.empty() && ReadsNeedToken(next))
    next.api_token = first_token_->token;
  config_ = std::move(next);
  if (server_)
    server_->Reconfigure(http::BuildApiRouter(MakeApiContext()),
                         http::HttpLimitsFromConfig(config_.http));
  // A reload is also the administrator's way to say "look again" (a drive
  // swapped, a tool fixed): a discovery pass now rather than in up to
  // inventory.interval_seconds. Passes coalesce, so a burst of signals costs one.
  if (discovery_ && options_.discovery) discovery_->RequestRun();
  LogOverrideWarnings();
  return Status::Ok();
}

void Daemon::LogOverrideWarnings() {
  if (!overrides_) return;
  auto readings = overrides_->LatestReadings();
  if (!readings.ok()) {
    LogWarning("overrides: " + readings.status().ToString());
    return;
  }
  overrides_->LogMissingAttributes(*readings);
}

void Daemon::Stop() {
  // Reverse order of construction: nothing serves, then nothing writes, then
  // the database closes, then the locks go.
  if (server_) {
    server_->Stop();
    server_.reset();
  }
  // The presence look asks discovery for passes: it stops first.
  presence_.reset();
  if (discovery_) {
    discovery_->Stop();
    discovery_.reset();
  }
  zfs_sampling_.reset();
  retention_.reset();
  // Running tests are cancelled and recorded; unstarted slots are given back.
  if (scheduler_) {
    scheduler_->Stop();
    scheduler_.reset();
  }
  evaluator_.reset();
  probe_.reset();
  executor_.reset();
  sched_store_.reset();
  // The last state goes out while the store is open; the brokers hear
  // "offline" once the dispatcher lets go of the shared sinks.
  if (mqtt_state_) mqtt_state_->Stop();
  if (dispatcher_) dispatcher_->Stop();  // pending retries are abandoned
  alerts_.reset();
  mqtt_state_.reset();
  dispatcher_.reset();
  mqtt_.clear();
  alert_repo_.reset();
  // Nothing asks the helper any more: closing its socket ends it.
  if (priv_channel_) priv_channel_->Close();
  if (priv_helper_pid_ > 0) {
    // It finishes a tool run in progress first (bounded by the tool's
    // timeout); as an unprivileged user we cannot kill it, only wait a while.
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    while (::waitpid(priv_helper_pid_, nullptr, WNOHANG) == 0 &&
           std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    priv_helper_pid_ = -1;
  }
  store_.reset();
  pidfile_.reset();
  database_lock_.reset();
}

std::string Daemon::StatusLine(const DiscoveryReport& report) const {
  std::string line = "serving " + url() + "; " + report.Summary();
  std::optional<SysTime> next;
  if (scheduler_)
    for (const PlannedTarget& t : scheduler_->Upcoming(1))
      if (!t.due.empty() && (!next || t.due.front() < *next)) next = t.due.front();
  line += next ? "; next run " + FormatUtc(*next) : "; no run scheduled";
  return line;
}

}  // namespace dp
