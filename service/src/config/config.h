// Config: the whole daemon/CLI configuration, parsed and validated once
//. Every field is optional in the file; the default is stated
// beside it and documented in config/diskpulse.json. Plain value type.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "config/schedule_config.h"
#include "config/alerts_config.h"
#include "config/retention_config.h"
#include "config/target_config.h"
#include "model/drive_override.h"

namespace dp {

struct TlsConfig {
  std::string cert_file;  // "" = plain HTTP (default). Both or neither.
  std::string key_file;
  bool enabled() const { return !cert_file.empty(); }
  bool operator==(const TlsConfig&) const = default;
};

struct HttpConfig {
  int max_connections = 1024;           // when full, the longest-waiting one makes room
  int read_timeout_seconds = 10;        // deadline for a whole request to arrive
  std::uint64_t max_body_bytes = 1 << 20;  // larger bodies get 413
  std::uint32_t max_header_bytes = 16 * 1024;
  bool operator==(const HttpConfig&) const = default;
};

struct ToolsConfig {
  std::string smartctl = "smartctl";    // looked up in PATH unless absolute
  std::string zpool = "zpool";
  std::string geom = "geom";            // FreeBSD
  std::string diskinfo = "diskinfo";    // FreeBSD
  std::string camcontrol = "camcontrol";  // FreeBSD
  int timeout_seconds = 60;             // a tool still running after this is killed
  bool operator==(const ToolsConfig&) const = default;
};

struct InventoryConfig {
  std::vector<std::string> include;     // device names/paths discovery would skip (loop0, dm-3)
  std::vector<std::string> exclude;     // device names/paths never to touch
  std::string sysfs_root = "/sys";      // for tests
  std::string dev_root = "/dev";        // for tests
  std::string udev_data_dir = "/run/udev/data";  // udev's database (full ATA model, WWN); for tests
  std::string proc_root = "/proc";      // /proc/mdstat; for tests
  std::string platform;                 // "" this machine; "linux" | "freebsd" (replaying a recording)
  int interval_seconds = 3600;          // the daemon re-runs discovery (drives, pools, SMART) this often
  // ZFS's own signals (zpool iostat -l/-w, status -s, sit_out) are sampled
  // this often, from the pools of the latest discovery; 0 = never.
  int zfs_sample_minutes = 60;
  // Between discovery passes, a cheap look this often: which disks the
  // kernel lists (sysfs, kern.disks; nothing is sent to a disk, none is
  // woken) and `zpool status` (and /proc/mdstat). A disk gone or back, or a
  // pool's or member's state changed, starts a discovery pass at once, and a
  // drive still gone at a later look past detection.missing_grace_minutes
  // raises its missing alert then. 0 = off (hardware changes wait for the
  // next discovery pass).
  int presence_interval_seconds = 120;
  bool operator==(const InventoryConfig&) const = default;
};

struct BenchConfig {
  std::string engine = "auto";          // auto | pread | uring
  // pool-write: each pool's scratch directory, on that pool (a dataset of
  // it); a pool without one gets no pool-write test. Empty = pool-write off.
  std::map<std::string, std::string> scratch_dir;
  double min_free_percent = 10;         // pool-write refuses if free space would fall below this
  int max_seconds = 60;                 // per test, per drive
  std::uint64_t max_bytes = 8ULL << 30;  // per test, per drive
  double busy_threshold = 0.05;         // foreign share of I/O above which a run is "contended"
  std::uint32_t jobs = 1;               // submitting threads per point, 1..64; 0 = "auto"
  bool operator==(const BenchConfig&) const = default;
};

struct Config {
  std::string source;                   // the file this came from, for messages
  std::string listen = "127.0.0.1:8470";  // host:port; [::1]:8470 for IPv6
  std::string database = "/var/lib/diskpulse/diskpulse.db";
  std::string webui_root = "/usr/share/diskpulse/webui";
  std::string pidfile = "";             // "" = none
  std::string log_level = "info";       // debug | info | warning | error
  std::string log_target = "stderr";    // stderr | syslog
  std::string api_token;                // "" = mutating API calls refused
  // Reads (GET /api/..., /metrics) from a listener that is not loopback need
  // api_token or read_token unless public_read is true; an explicit false
  // asks for a token on loopback too. Unset = decided by `listen`.
  std::optional<bool> public_read;
  std::string read_token;               // "" = reads take api_token only
  std::string metrics_token;            // "" = /metrics is read like the API
  std::string user;                     // drop privileges to this user after start-up ("" = stay)
  std::string replay_dir;               // "" = run real tools; else replay captures from here
  TlsConfig tls;
  HttpConfig http;
  ToolsConfig tools;
  InventoryConfig inventory;
  BenchConfig bench;
  RetentionConfig retention;            // how long the database keeps each detail
  std::vector<TargetConfig> targets;
  AlertsConfig alerts_config;           // the "alerts" section
  // The "overrides" section (config/overrides_config.h): per-drive tunings,
  // source "config", each with its FILE:LINE.
  std::vector<DriveOverride> overrides;

  // host and port split out of `listen` by validation.
  std::string listen_host = "127.0.0.1";
  std::uint16_t listen_port = 8470;

  // The "schedules" section (absent: DefaultSchedules(); [] schedules nothing;
  // schedules' "targets" are merged into `targets`) and "scheduler".
  std::vector<ScheduleConfig> schedule_list = DefaultSchedules();
  SchedulerConfig scheduler;
};

// True when `host` (as in `listen`) is a loopback address: 127.0.0.0/8,
// ::1, ::ffff:127.x or "localhost". Anything else, the wildcards included,
// is reachable from the network.
bool IsLoopbackHost(std::string_view host);

// Whether GET /api/... and /metrics need a token: public_read when set,
// otherwise only when the daemon listens beyond loopback.
bool ReadsNeedToken(const Config& config);

// Parses config text. On failure the Status message holds one line per problem:
// "FILE:LINE: key.path: what is wrong" (the rules are config/json_walker.h's),
// or "FILE:LINE:COL: malformed JSON: ..." for a syntax error. Comments are allowed.
Result<Config> ParseConfig(std::string_view text, std::string_view file_name);

// Reads and parses a file ("FILE: cannot read: ..." when it cannot be read).
Result<Config> LoadConfigFile(const std::string& path);

// Settings an owner gives a container without a shell, over the file's:
// DISKPULSE_LISTEN ("0.0.0.0:8470"), DISKPULSE_API_TOKEN, DISKPULSE_READ_TOKEN,
// TZ (checked against TZDIR), and alert destinations named "env" from
// DISKPULSE_SMTP_* / DISKPULSE_MAIL_*, DISKPULSE_MQTT_* and
// DISKPULSE_WEBHOOK_URL, checked by the file's own rules (docs/container.md
// lists them; an empty variable is unset). LoadConfigFile applies them with
// getenv, so a reload keeps them. Error: a value that does not parse, named.
Status ApplyEnvironment(Config& c, const std::function<const char*(const char*)>& get);

}  // namespace dp
