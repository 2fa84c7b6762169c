// Daemon: diskpulsed's composition root. It builds every part
// in order, owns them, and takes them down in reverse order. main() drives
// it: Create() (everything that can fail at start-up), Start() (after the
// optional fork: pid, privileges, threads), Reload() on SIGHUP, Stop().
//
// Extending it (inventory, sched, alerts): add the component as a member
// below the store, build it in Create() or Start() (whichever it needs: work
// needing root goes in Create, threads in Start), hand it to the API through
// http::ApiContext if the web side needs it, apply its reloadable keys in
// ApplyReload(), and stop it in Stop() before the store closes.
//
// Threads: all methods are called from main's thread; the parts it owns run
// their own threads (the HTTP server has one).
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/first_start_token.h"
#include "app/lock_file.h"
#include "base/clock.h"
#include "base/heartbeat.h"
#include "base/command_runner.h"
#include "base/result.h"
#include "config/config.h"
#include "http/api.h"

namespace dp {

class Store;
class DiscoveryService;
class DeviceOpener;
class SchedulerStore;
class JobExecutor;
class DriveStateProbe;
class Scheduler;
class AlertRepository;
class NotificationOutbox;
class AlertDispatcher;
class AlertService;
class OverrideBook;
class MqttSink;
class MqttStatePublisher;
struct MqttSnapshot;
class RunEvaluator;
class PrivChannel;
class RetentionTask;
class ZfsSamplingTask;
class PresenceWatch;
struct DiscoveryReport;
struct PresenceLook;
namespace http {
class Server;
}

struct DaemonOptions {
  bool foreground = true;  // false: detached, so stderr logging goes to syslog
  // After each discovery pass, one line for the service manager's status
  // ("serving URL; 4 drives, 1 pool; ...; next run 2026-01-04T03:00Z");
  // called on the discovery thread.
  std::function<void(const std::string&)> on_status;
  // Demo mode (demo/demo_mode.h) replaces the devices: runs go to this
  // executor and the scheduler asks this probe; null = the real ones.
  std::function<std::unique_ptr<JobExecutor>(Store&, const Clock&)> make_executor;
  std::function<std::unique_ptr<DriveStateProbe>()> make_probe;
  bool discovery = true;  // false: no discovery passes (the demo feeds its own inventory)
};

class Daemon {
 public:
  // Sets up logging as the configuration says (syslog when detached).
  static void ConfigureLogging(const Config& config, const DaemonOptions& options);

  // In order: the database folder (created if its parent exists), the lock
  // beside the database (a second daemon on the same database is refused),
  // the pidfile lock, the database itself (opened, migrated, quick_check),
  // the HTTP listener (bound, not yet serving). Each error says what failed
  // and where.
  static Result<std::unique_ptr<Daemon>> Create(Config config, DaemonOptions options = {});
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Writes the pidfile, drops to `user` if configured, starts serving. Run
  // as root with `user` set, it first forks the privileged helper
  // (priv_helper.h): device opens and tools then go through it.
  Status Start();

  // Re-reads the configuration file. On error nothing changes and the status
  // says why. Takes effect at once: log_level, log_target, api_token,
  // webui_root, http.*. Keys that need a restart (listen, database, pidfile,
  // user, tls) are logged as such and keep their running values.
  Status Reload();

  // Stops serving, closes the database, removes the pidfile. Idempotent.
  void Stop();

  // "http://127.0.0.1:8470/" (fixed once the socket is bound; "" before).
  const std::string& url() const { return url_; }
  // The token made (or read back) because none was configured; nullopt otherwise.
  const std::optional<FirstStartToken>& first_start_token() const { return first_token_; }
  const Config& config() const { return config_; }
  // For the API and tests; owned by the daemon, null before Create finished.
  Scheduler* scheduler() const { return scheduler_.get(); }
  AlertService* alerts() const { return alerts_.get(); }
  AlertDispatcher* dispatcher() const { return dispatcher_.get(); }
  Store* store() const { return store_.get(); }
  // The working parts (scheduler loop, HTTP server, database, evaluator)
  // without progress for longer than `limit` (base/heartbeat.h); the
  // service manager's watchdog is fed only while there are none.
  std::vector<std::string> Stalled(std::chrono::nanoseconds limit) const {
    return heartbeats_.Stalled(limit);
  }

 private:
  Daemon(Config config, DaemonOptions options);
  http::ApiContext MakeApiContext() const;
  // Overrides naming a SMART attribute a drive's latest reading lacks.
  void LogOverrideWarnings();

  Config config_;
  DaemonOptions options_;
  SystemClock clock_;
  SysTime started_at_;
  // Before every part that reports to it, so it outlives them.
  HeartbeatBoard heartbeats_{clock_};
  std::unique_ptr<LockFile> database_lock_;
  std::unique_ptr<LockFile> pidfile_;
  std::unique_ptr<Store> store_;
  // Tools run for real, or answered from the recording in replay_dir
  // (`diskpulsed --replay DIR`); discovery saves drives, pools and SMART.
  std::unique_ptr<CommandRunner> runner_;
  // Privilege separation (`user` set, started as root): the channel to the
  // root helper forked in Start(); runner_ and opener_ then ask it, and the
  // alert sinks' commands (sendmail) run unprivileged through local_runner_.
  std::unique_ptr<PrivChannel> priv_channel_;
  pid_t priv_helper_pid_ = -1;
  std::unique_ptr<CommandRunner> local_runner_;
  // Alerts: stored through the store, sent by the dispatcher's sink threads.
  std::unique_ptr<OverrideBook> overrides_;      // before alerts_, which asks it
  std::unique_ptr<AlertRepository> alert_repo_;
  std::unique_ptr<NotificationOutbox> outbox_;  // outlives dispatcher_
  std::unique_ptr<AlertDispatcher> dispatcher_;
  std::unique_ptr<AlertService> alerts_;
  // One per alerts.mqtt broker, shared with dispatcher_ (one connection for
  // notifications and state); mqtt_state_ publishes the drives' and pools'
  // state to them whenever an alert, a mute or discovery's view changes.
  std::vector<std::shared_ptr<MqttSink>> mqtt_;
  std::unique_ptr<MqttStatePublisher> mqtt_state_;
  // The scheduler runs tests through the executor (bench, smartctl), asks the
  // probe before each, and hands every finished run to the evaluator
  // (detection -> alerts, confirmation re-tests).
  std::unique_ptr<DeviceOpener> opener_;
  std::unique_ptr<SchedulerStore> sched_store_;
  std::unique_ptr<JobExecutor> executor_;
  std::unique_ptr<DriveStateProbe> probe_;
  std::unique_ptr<RunEvaluator> evaluator_;
  std::unique_ptr<Scheduler> scheduler_;
  // Discovery feeds the scheduler its inventory after every pass.
  std::unique_ptr<DiscoveryService> discovery_;
  // The cheap look between discovery passes (watch/presence_watch.h): a disk
  // gone or a pool's state changed starts a discovery pass at once.
  std::unique_ptr<PresenceWatch> presence_;
  // Keeps the database small: thins old detail daily (retention.*).
  std::unique_ptr<RetentionTask> retention_;
  std::unique_ptr<http::Server> server_;
  // The server's address, kept apart from server_: discovery's thread puts
  // it in its status line while Stop may be resetting server_ on the main
  // thread (ThreadSanitizer found that race).
  std::string url_;
  std::optional<FirstStartToken> first_token_;  // made or read at start (first_start_token.h)
  // ZFS's own signals of the pool members (watch/zfs_sampling_task.h).
  std::unique_ptr<ZfsSamplingTask> zfs_sampling_;

  // Builds the alert service and the scheduler (Create; nothing starts).
  Status BuildSchedulerAndAlerts();
  // After each discovery pass: inventory to the scheduler and to the ZFS
  // sampling, pool verdicts, and due reminders to the alerts.
  void OnDiscovery(const DiscoveryReport& report);
  // Every drive's and pool's state as MQTT shows it, from the store.
  Result<MqttSnapshot> MqttSnapshotNow();
  // After each presence look: the missing alert of a drive still gone.
  void OnPresenceLook(const PresenceLook& look);
  std::string StatusLine(const DiscoveryReport& report) const;
};

}  // namespace dp
