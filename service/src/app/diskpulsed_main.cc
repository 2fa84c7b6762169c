// diskpulsed: the resident daemon. main() reads as the architecture (style.md,
// after OpenBSD ntpd): parse the configuration, take the resources that need
// root (database, locks, port), detach, drop privileges, serve, and wait for
// signals: SIGHUP reloads, SIGTERM/SIGINT stop.
//
// Exit status: 0 clean stop or configuration OK, 1 configuration or
// start-up error, 2 usage error.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "app/daemon.h"
#include "app/daemon_args.h"
#include "app/idle_memory.h"
#include "app/first_start_config.h"
#include "app/service_notifier.h"
#include "app/show_schedule.h"
#include "app/signal_waiter.h"
#include "app/watchdog_feeder.h"
#include "base/log.h"
#include "config/config.h"
#include "demo/demo_executor.h"
#include "demo/demo_mode.h"
#include "sched/scheduler.h"

namespace {

// Before detaching stderr is the terminal; after it, only the log remains.
int Fail(const dp::Status& status, bool detached = false) {
  if (detached) dp::LogError(status.message());
  else std::fprintf(stderr, "diskpulsed: %s\n", status.message().c_str());
  return 1;
}

// --help and --version answer without reading anything; nullopt: go on.
std::optional<int> AnswerWithoutConfig(const dp::DaemonArgs& args) {
  if (args.help) {
    std::fputs(dp::DaemonUsage().c_str(), stdout);
    return 0;
  }
  if (args.version) {
    std::printf("diskpulsed %s\n", DP_VERSION);
    return 0;
  }
  return std::nullopt;
}

// The configuration file with the command line's overrides; one problem per
// line, "FILE:LINE: key: what is wrong", printed here. A container's first
// start on an empty configuration volume writes the image's template there
// (app/first_start_config.h).
std::optional<dp::Config> LoadConfiguration(const dp::DaemonArgs& args) {
  const char* config_template = std::getenv("DISKPULSE_CONFIG_TEMPLATE");
  auto first_config =
      dp::WriteConfigIfMissing(args.config_path, config_template ? config_template : "");
  if (!first_config.ok()) {
    Fail(first_config.status());
    return std::nullopt;
  }
  if (!first_config->message.empty())
    std::printf("diskpulsed: %s\n", first_config->message.c_str());
  auto config = dp::LoadConfigFile(first_config->path);
  if (!config.ok()) {
    std::fprintf(stderr, "%s\n", config.status().message().c_str());
    if (config.status().code() == dp::StatusCode::kNotFound &&
        args.config_path == dp::kDefaultConfigPath)
      std::fprintf(stderr, "diskpulsed: give the configuration file with -c FILE\n");
    return std::nullopt;
  }
  if (args.pidfile) config->pidfile = *args.pidfile;
  if (!args.replay_dir.empty()) config->replay_dir = args.replay_dir;
  return std::move(config).value();
}

// --check-config and --show-schedule answer from the configuration and stop;
// nullopt: go on and serve.
std::optional<int> AnswerFromConfig(const dp::DaemonArgs& args, const dp::Config& config) {
  if (args.check_config) {
    std::printf("configuration OK\n");
    return 0;
  }
  if (args.show_schedule) {
    auto text = dp::ShowSchedule(config);
    if (!text.ok()) return Fail(text.status());
    std::fputs(text->c_str(), stdout);
    return 0;
  }
  return std::nullopt;
}

// The simulated NAS, seeded before the daemon opens its store (it points the
// configuration at the demo's temporary database).
dp::Result<dp::DemoSetup> SeedDemo(dp::Config& config, int weeks) {
  std::printf("diskpulsed: demo: seeding %d weeks of simulated history...\n", weeks);
  std::fflush(stdout);
  auto setup = dp::PrepareDemo(config, dp::ToUnixSeconds(dp::SystemClock().Now()), weeks);
  if (!setup.ok()) return setup.status();
  std::printf("diskpulsed: demo: %d runs, %d open alerts in %s (removed on exit); API token "
              "'%s'\n", setup->seeded_runs, setup->alerts, setup->dir.c_str(),
              config.api_token.c_str());
  return setup;
}

// How the daemon is built: the service manager's status line, and in demo
// mode the simulated executor and probe instead of the devices, and no
// discovery (the demo feeds its own inventory).
dp::DaemonOptions WireOptions(const dp::DaemonArgs& args, dp::ServiceNotifier& notifier,
                              const std::optional<dp::DemoSetup>& demo) {
  dp::DaemonOptions options;
  options.foreground = args.foreground;
  if (notifier.enabled())
    options.on_status = [&notifier](const std::string& line) { notifier.SetStatus(line); };
  if (!demo) return options;
  auto world = demo->world;
  options.make_executor = [world](dp::Store& store, const dp::Clock& clock) {
    return std::unique_ptr<dp::JobExecutor>(std::make_unique<dp::DemoJobExecutor>(
        world, store, clock, std::chrono::milliseconds(4000)));
  };
  options.make_probe = [world] {
    return std::unique_ptr<dp::DriveStateProbe>(std::make_unique<dp::DemoStateProbe>(world));
  };
  options.discovery = false;
  return options;
}

// Where it listens, and the API token a first start made.
void AnnounceListening(const dp::Daemon& daemon) {
  std::printf("diskpulsed: listening on %s\n", daemon.url().c_str());
  if (const auto& first = daemon.first_start_token()) {
    if (first->made_now)
      std::printf("diskpulsed: first start with no api_token, listening beyond loopback: made "
                  "an API token and kept it in %s\n"
                  "diskpulsed: open %s and give it this token: %s\n",
                  first->path.c_str(), daemon.url().c_str(), first->token.c_str());
    else
      std::printf("diskpulsed: API token: the one made at the first start, kept in %s\n",
                  first->path.c_str());
  }
  std::fflush(stdout);
}

// A part is stalled once it has made no progress for the manager's whole
// watchdog timeout, and never sooner than the longest wait that is still
// progress: the scheduler's probe waits on up to two tools (smartctl, zpool),
// each killed after tools.timeout_seconds, and a database call on SQLite's
// 10 s busy timeout.
std::chrono::nanoseconds StallLimit(std::optional<std::chrono::microseconds> watchdog,
                                    const dp::Config& config) {
  return std::max<std::chrono::nanoseconds>(
      watchdog ? *watchdog * 2 : std::chrono::seconds(0),
      std::chrono::seconds(2 * config.tools.timeout_seconds + 15));
}

// Serves until SIGTERM or SIGINT: SIGHUP reloads the configuration; the
// watchdog is pinged while no part is stalled; at rest, start-up's and the
// last job's pages are handed back (app/idle_memory.h), once start-up
// discovery is done, then every five minutes.
void Serve(dp::Daemon& daemon, dp::SignalWaiter& signals, dp::ServiceNotifier& notifier,
           const std::string& serving) {
  const auto watchdog = notifier.watchdog_interval();
  const std::chrono::nanoseconds stall_limit = StallLimit(watchdog, daemon.config());
  dp::WatchdogFeeder feeder(notifier, [&] { return daemon.Stalled(stall_limit); });
  if (watchdog)
    dp::LogInfo("service manager: watchdog ping every " + std::to_string(watchdog->count() / 1000) +
                " ms while no part of the daemon has been stuck for " +
                std::to_string(std::chrono::duration_cast<std::chrono::seconds>(stall_limit).count()) + " s");
  auto next_ping = std::chrono::steady_clock::now();
  auto next_trim = next_ping + std::chrono::seconds(30);
  while (true) {
    auto now = std::chrono::steady_clock::now();
    if (watchdog && now >= next_ping) {
      feeder.Feed();
      next_ping = now + *watchdog;
    }
    if (now >= next_trim) {
      dp::TrimIdleMemory();
      next_trim = now + std::chrono::minutes(5);
    }
    const auto until = watchdog ? std::min(next_ping, next_trim) : next_trim;
    int sig = signals.WaitFor(std::chrono::duration_cast<std::chrono::milliseconds>(until - now) +
                              std::chrono::milliseconds(1));
    if (sig == 0) continue;
    if (sig == SIGHUP) {
      notifier.Reloading();
      if (auto st = daemon.Reload(); st.ok())
        dp::LogInfo("configuration reloaded from " + daemon.config().source);
      else
        dp::LogError("reload failed, keeping the current configuration:\n" + st.message());
      notifier.Ready(serving + "; configuration reloaded");
      continue;
    }
    dp::LogInfo(std::string("stopping on ") + (sig == SIGINT ? "SIGINT" : "SIGTERM"));
    return;
  }
}

}  // namespace

int main(int argc, char** argv) {
  dp::LimitMallocArenas();
  // 1. Arguments: a usage error exits 2; --help and --version answer.
  auto args = dp::ParseDaemonArgs(std::vector<std::string>(argv + 1, argv + argc));
  if (!args.ok()) {
    std::fprintf(stderr, "diskpulsed: %s\n%s", args.status().message().c_str(),
                 dp::DaemonUsage().c_str());
    return 2;
  }
  if (auto done = AnswerWithoutConfig(*args)) return *done;

  // 2. Configuration; --check-config and --show-schedule answer from it.
  auto config = LoadConfiguration(*args);
  if (!config) return 1;
  if (auto done = AnswerFromConfig(*args, *config)) return *done;

  // 3. Demo or real wiring. Signals are taken synchronously by the main
  // thread: they are blocked before any thread exists so every thread
  // inherits the mask.
  std::optional<dp::DemoSetup> demo;
  if (args->demo) {
    auto setup = SeedDemo(*config, args->demo_weeks);
    if (!setup.ok()) return Fail(setup.status());
    demo = std::move(setup).value();
  }
  dp::SignalWaiter signals;
  ::signal(SIGPIPE, SIG_IGN);
  dp::Daemon::ConfigureLogging(*config, dp::DaemonOptions{});  // stderr until detached
  // systemd's notify socket and watchdog (Type=notify); off when not asked.
  dp::ServiceNotifier notifier = dp::ServiceNotifier::FromProcessEnvironment();
  const dp::DaemonOptions options = WireOptions(*args, notifier, demo);

  // 4. Root-only resources: database folder and locks, database, port.
  auto daemon = dp::Daemon::Create(std::move(*config), options);
  if (!daemon.ok()) {
    if (demo) dp::RemoveDemo(*demo);
    return Fail(daemon.status());
  }
  AnnounceListening(**daemon);

  // 5. Detach unless told to stay (systemd and tests use --foreground).
  if (!args->foreground) {
    dp::Daemon::ConfigureLogging((*daemon)->config(), options);
    if (::daemon(0, 0) != 0) return Fail(dp::ErrnoStatus(errno, "cannot detach"), true);
  }

  // 6. Pidfile, privileges, threads (discovery's first pass starts here).
  const std::string serving = "serving " + (*daemon)->url();
  notifier.SetStatus(serving + "; discovering drives");
  if (auto st = (*daemon)->Start(); !st.ok()) return Fail(st, !args->foreground);
  notifier.Ready("");
  if (demo) (*daemon)->scheduler()->UpdateInventory(demo->world->drives(), demo->world->pools());

  // 7. Serve until told to stop.
  Serve(**daemon, signals, notifier, serving);

  // 8. Shutdown: threads joined, the demo's database removed.
  notifier.Stopping();
  (*daemon)->Stop();
  if (demo) dp::RemoveDemo(*demo);
  dp::LogInfo("stopped");
  return 0;
}
