#include "config/config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cerrno>

#include <fstream>
#include <optional>
#include <cstdlib>
#include <sstream>

#include "base/log.h"
#include "base/mounts.h"
#include "config/json_walker.h"
#include "config/key_line.h"
#include "config/overrides_config.h"

namespace dp {
namespace {

using nlohmann::json;

// bench.scratch_dir: {"POOL": "/DIR", ...}, one directory per pool, on that
// pool; "" (or {}) turns pool-write off. One directory for every pool would
// file one file system's figures under each pool's name, so a plain string
// is refused, as are a directory shared by two pools and one that is on
// another pool's dataset or another file system.
void ReadScratchDirs(JsonWalker& b, std::map<std::string, std::string>& out) {
  const json* v = b.Find("scratch_dir");
  if (!v || (v->is_string() && v->get<std::string>().empty())) return;
  if (!v->is_object()) {
    b.Error("scratch_dir", std::string("expected an object of pool -> directory, e.g. "
                                       "{\"tank\": \"/tank/diskpulse\"} (each pool-write test "
                                       "writes on its own pool), found ") +
                               JsonKind(*v));
    return;
  }
  std::map<std::string, std::string> dirs;
  if (!b.StringMap("scratch_dir", dirs)) return;
  for (const auto& [pool, dir] : dirs) {
    const std::string key = "scratch_dir." + pool;
    if (dir.empty() || dir.front() != '/') {
      b.Error(key, "expected an absolute directory on pool " + pool + ", found \"" + dir + "\"");
      continue;
    }
    std::string shared;
    for (const auto& [other, other_dir] : out) {
      const bool inside = dir.rfind(other_dir + "/", 0) == 0 || other_dir.rfind(dir + "/", 0) == 0;
      if (dir == other_dir || inside) shared = other;
    }
    if (!shared.empty()) {
      b.Error(key, dir + " is (or shares a tree with) pool " + shared +
                       "'s scratch directory: each pool-write test measures the pool its "
                       "directory is on");
      continue;
    }
    if (std::string why = ScratchDirMismatch(pool, dir); !why.empty()) {
      b.Error(key, why);
      continue;
    }
    out[pool] = dir;
  }
}

bool SplitListen(const std::string& listen, std::string& host, std::uint16_t& port,
                 std::string& why) {
  std::string h, p;
  if (!listen.empty() && listen.front() == '[') {
    auto close = listen.find(']');
    if (close == std::string::npos || close + 1 >= listen.size() || listen[close + 1] != ':') {
      why = "expected [ipv6]:port, found '" + listen + "'";
      return false;
    }
    h = listen.substr(1, close - 1);
    p = listen.substr(close + 2);
  } else {
    auto colon = listen.rfind(':');
    if (colon == std::string::npos) {
      why = "expected host:port, found '" + listen + "'";
      return false;
    }
    h = listen.substr(0, colon);
    p = listen.substr(colon + 1);
  }
  if (h.empty()) {
    why = "missing host in '" + listen + "' (use 127.0.0.1 for loopback, 0.0.0.0 for all)";
    return false;
  }
  if (p.empty() || p.size() > 5 || p.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(p) > 65535) {
    why = "port must be a number from 0 to 65535, found '" + p + "'";
    return false;
  }
  host = h;
  port = static_cast<std::uint16_t>(std::stoi(p));
  return true;
}

void ParseRoot(JsonWalker& r, Config& c) {
  r.String("listen", c.listen);
  r.String("database", c.database);
  r.String("webui_root", c.webui_root);
  r.String("pidfile", c.pidfile);
  r.String("log_level", c.log_level);
  r.Choice("log_target", c.log_target, {"stderr", "syslog"});
  r.String("api_token", c.api_token);
  // null (the default) leaves the choice to the listen address.
  if (const json* j = r.Find("public_read"); j && !j->is_null()) {
    if (bool open = false; r.Bool("public_read", open)) c.public_read = open;
  }
  r.String("read_token", c.read_token);
  r.String("metrics_token", c.metrics_token);
  r.String("user", c.user);
  r.String("replay_dir", c.replay_dir);
  r.Object("tls", [&](JsonWalker& t) {
    std::size_t before = t.problems().count();
    t.String("cert_file", c.tls.cert_file);
    t.String("key_file", c.tls.key_file);
    // A half-set pair only when both were read: a wrong type is its own problem.
    if (t.problems().count() == before && c.tls.cert_file.empty() != c.tls.key_file.empty())
      t.Error(c.tls.cert_file.empty() ? "cert_file" : "key_file",
              "cert_file and key_file go together: set both or neither");
  });
  r.Object("http", [&](JsonWalker& h) {
    h.Number("max_connections", c.http.max_connections, 1, 100000);
    h.Number("read_timeout_seconds", c.http.read_timeout_seconds, 1, 3600);
    h.Number("max_body_bytes", c.http.max_body_bytes, 0, 1ULL << 30);
    h.Number("max_header_bytes", c.http.max_header_bytes, 1024, 1 << 20);
  });
  r.Object("tools", [&](JsonWalker& t) {
    t.String("smartctl", c.tools.smartctl);
    t.String("zpool", c.tools.zpool);
    t.String("geom", c.tools.geom);
    t.String("diskinfo", c.tools.diskinfo);
    t.String("camcontrol", c.tools.camcontrol);
    t.Number("timeout_seconds", c.tools.timeout_seconds, 1, 86400);
  });
  r.Object("inventory", [&](JsonWalker& i) {
    i.Strings("include", c.inventory.include);
    i.Strings("exclude", c.inventory.exclude);
    i.String("sysfs_root", c.inventory.sysfs_root);
    i.String("dev_root", c.inventory.dev_root);
    i.String("udev_data_dir", c.inventory.udev_data_dir);
    i.String("proc_root", c.inventory.proc_root);
    i.Choice("platform", c.inventory.platform, {"", "linux", "freebsd"}, "linux or freebsd");
    i.Number("interval_seconds", c.inventory.interval_seconds, 60, 7 * 86400);
    i.Number("zfs_sample_minutes", c.inventory.zfs_sample_minutes, 0, 24 * 60);
    i.Number("presence_interval_seconds", c.inventory.presence_interval_seconds, 0, 3600);
  });
  r.Object("bench", [&](JsonWalker& b) {
    b.Choice("engine", c.bench.engine, {"auto", "pread", "uring"});
    ReadScratchDirs(b, c.bench.scratch_dir);
    b.Number("min_free_percent", c.bench.min_free_percent, 0, 99);
    b.Number("max_seconds", c.bench.max_seconds, 1, 86400);
    b.Number("max_bytes", c.bench.max_bytes, 1 << 20, 1e15);
    b.Number("busy_threshold", c.bench.busy_threshold, 0, 1);
    if (const json* j = b.Find("jobs"); j && j->is_string()) {
      if (*j == "auto") c.bench.jobs = 0;
      else b.Error("jobs", "expected auto or a number from 1 to 64, found " + j->dump());
    } else {
      b.Number("jobs", c.bench.jobs, 1, 64);
    }
  });
  r.Object("retention", [&](JsonWalker& k) {
    RetentionConfig& rc = c.retention;
    k.Bool("enabled", rc.enabled);
    k.Number("interval_hours", rc.interval_hours, 1, 24 * 31);
    k.Number("smart_full_days", rc.smart_full_days, 1, 3650);
    k.Number("smart_daily_days", rc.smart_daily_days, 1, 36500);
    k.Number("smart_runs_days", rc.smart_runs_days, 1, 36500);
    k.Number("histogram_days", rc.histogram_days, 1, 36500);
    k.Number("detail_days", rc.detail_days, 1, 36500);
    if (rc.smart_daily_days < rc.smart_full_days)
      k.Error("smart_daily_days", "must be at least smart_full_days (" +
                                      std::to_string(rc.smart_full_days) + ")");
  });
  ReadTargets(r, "targets", c.targets);
  ReadSchedules(r, c.bench.scratch_dir, c.schedule_list, c.targets);
  r.Object("scheduler", [&](JsonWalker& s) { ReadScheduler(s, c.scheduler); });
  r.Object("alerts", [&](JsonWalker& a) { ReadAlerts(a, c.alerts_config); });
  ReadOverrides(r, c.overrides);

  std::string why;
  if (!SplitListen(c.listen, c.listen_host, c.listen_port, why)) r.Error("listen", why);
  if (!ParseLogLevel(c.log_level).ok())
    r.Error("log_level", "expected debug, info, warning or error, found '" + c.log_level + "'");
  if (c.database.empty()) r.Error("database", "must name a file");
}

std::string LineColumn(std::string_view text, std::size_t byte) {
  int line = 1, col = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

}  // namespace

bool IsLoopbackHost(std::string_view host) {
  if (host == "localhost") return true;
  std::string h(host);
  in_addr v4{};
  if (::inet_pton(AF_INET, h.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, h.c_str(), &v6) == 1) {
    if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
    return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
  }
  return false;  // a name other than localhost may resolve to anything
}

bool ReadsNeedToken(const Config& config) {
  if (config.public_read.has_value()) return !*config.public_read;
  return !IsLoopbackHost(config.listen_host);
}

Result<Config> ParseConfig(std::string_view text, std::string_view file_name) {
  if (IsBlankJson(text))
    return InvalidArgument(std::string(file_name) +
                           ": the file is empty; write {} to take every default");
  json doc;
  try {
    doc = json::parse(text.begin(), text.end(), /*cb=*/nullptr, /*allow_exceptions=*/true,
                      /*ignore_comments=*/true);
  } catch (const json::parse_error& e) {
    // e.byte is 1-based and points just past the offending character.
    std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
    // what(): "[json.exception.parse_error.101] parse error at line 2, column 5:
    // syntax error while parsing value - invalid literal; last read: 'tru'".
    // Keep what follows the position (itself may contain ": ").
    std::string what = e.what();
    auto column = what.find("column ");
    auto colon = what.find(": ", column == std::string::npos ? 0 : column);
    if (colon != std::string::npos) what = what.substr(colon + 2);
    return InvalidArgument(std::string(file_name) + ":" + LineColumn(text, at) +
                           ": malformed JSON: " + what);
  } catch (const json::out_of_range& e) {
    // A number too large for a double (1e400): "number overflow parsing
    // '1e400'"; the place is where that literal first appears.
    std::string what = e.what();
    if (auto close = what.find("] "); close != std::string::npos) what = what.substr(close + 2);
    std::size_t at = 0;
    auto q = what.find('\'');
    auto q2 = q == std::string::npos ? q : what.find('\'', q + 1);
    if (q2 != std::string::npos) {
      auto found = text.find(what.substr(q + 1, q2 - q - 1));
      if (found != std::string_view::npos) at = found;
    }
    return InvalidArgument(std::string(file_name) + ":" + LineColumn(text, at) +
                           ": malformed JSON: " + what);
  }
  if (!doc.is_object())
    return InvalidArgument(std::string(file_name) +
                           ": the configuration must be a JSON object { ... }");
  Config config;
  config.source = std::string(file_name);
  ConfigProblems problems(text, file_name);
  {
    JsonWalker root(doc, "", problems);
    ParseRoot(root, config);
  }
  if (!problems.empty()) return InvalidArgument(problems.Joined());
  return config;
}

Result<Config> LoadConfigFile(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return InvalidArgument(path + ": cannot read configuration: it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return ErrnoStatus(errno, path + ": cannot read configuration");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return IoError(path + ": cannot read configuration: read error");
  DP_ASSIGN_OR_RETURN(Config c, ParseConfig(ss.str(), path));
  DP_RETURN_IF_ERROR(ApplyEnvironment(c, [](const char* name) { return std::getenv(name); }));
  return c;
}

namespace {

using EnvGet = std::function<std::optional<std::string>(const char*)>;

// TZ as the C library reads it: a zone under TZDIR (/usr/share/zoneinfo),
// ":ZONE" the same, or a POSIX rule ("CET-1CEST,M3.5.0,M10.5.0/3", "UTC0"),
// which always holds an offset digit. A zone name the library cannot find
// would silently run every schedule in UTC, so it is refused.
Status CheckTimeZone(const EnvGet& value) {
  auto tz = value("TZ");
  if (!tz) return Status::Ok();
  std::string zone = (*tz)[0] == ':' ? tz->substr(1) : *tz;
  const std::string head = zone.substr(0, zone.find(','));  // a rule's dates hold '/'
  if ((*tz)[0] != ':' && head.find_first_of("0123456789") != std::string::npos &&
      head.find('/') == std::string::npos)
    return Status::Ok();  // a POSIX rule with its own offset
  const std::string dir = value("TZDIR").value_or("/usr/share/zoneinfo");
  struct stat st;
  if (zone.empty() || zone.find("..") != std::string::npos ||
      ::stat((zone[0] == '/' ? zone : dir + "/" + zone).c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return InvalidArgument("TZ='" + *tz + "': no such time zone in " + dir +
                           " (schedules would run in UTC): use a name such as Europe/Berlin "
                           "or America/New_York");
  return Status::Ok();
}

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) {
    auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

// mqtt://HOST[:PORT]: the broker's address as Home Assistant and most brokers
// print it. TLS needs a CA file, which belongs in the file (alerts.mqtt[].ca_file).
Status MqttAddress(const std::string& url, nlohmann::json& m) {
  const std::string scheme = "mqtt://";
  const std::string why = "DISKPULSE_MQTT_URL='" + url + "': ";
  if (url.rfind(scheme, 0) != 0)
    return InvalidArgument(why + "expected mqtt://HOST or mqtt://HOST:PORT (for TLS set "
                                 "alerts.mqtt[].ca_file and port in the configuration file)");
  std::string rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  std::string host = rest;
  if (auto colon = rest.rfind(':'); colon != std::string::npos && rest.find(']', colon) == std::string::npos) {
    host = rest.substr(0, colon);
    const std::string port = rest.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos)
      return InvalidArgument(why + "the port must be a number");
    m["port"] = std::stoi(port);
  }
  if (host.size() > 1 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty() || host.find_first_of("/@ ") != std::string::npos)
    return InvalidArgument(why + "missing or malformed host");
  m["host"] = host;
  return Status::Ok();
}

// The alerts an owner sets through the environment, as the file's "alerts"
// section would hold them, each destination named "env". Numbers that do not
// parse are named here; everything else goes through the file's own checks.
Result<nlohmann::json> EnvironmentAlerts(const EnvGet& value) {
  json alerts = json::object();
  if (auto host = value("DISKPULSE_SMTP_HOST")) {
    json smtp = {{"host", *host}};
    if (auto port = value("DISKPULSE_SMTP_PORT")) {
      if (port->size() > 5 || port->find_first_not_of("0123456789") != std::string::npos)
        return InvalidArgument("DISKPULSE_SMTP_PORT='" + *port + "': expected a port number");
      smtp["port"] = std::stoi(*port);
    }
    for (auto [var, key] : {std::pair{"DISKPULSE_SMTP_SECURITY", "security"},
                            std::pair{"DISKPULSE_SMTP_USERNAME", "username"},
                            std::pair{"DISKPULSE_SMTP_PASSWORD", "password"},
                            std::pair{"DISKPULSE_SMTP_PASSWORD_FILE", "password_file"}}) {
      if (auto v = value(var)) smtp[key] = *v;
    }
    json mail = {{"name", "env"}, {"smtp", smtp}};
    if (auto from = value("DISKPULSE_MAIL_FROM")) mail["from"] = *from;
    auto to = value("DISKPULSE_MAIL_TO");
    if (!to || SplitList(*to).empty())
      return InvalidArgument("DISKPULSE_SMTP_HOST is set but DISKPULSE_MAIL_TO is not: give the "
                             "address(es) alerts go to, separated by commas");
    mail["to"] = SplitList(*to);
    alerts["mail"] = json::array({mail});
  } else {
    for (const char* var : {"DISKPULSE_SMTP_PORT", "DISKPULSE_SMTP_SECURITY", "DISKPULSE_SMTP_USERNAME",
                            "DISKPULSE_SMTP_PASSWORD", "DISKPULSE_SMTP_PASSWORD_FILE",
                            "DISKPULSE_MAIL_FROM", "DISKPULSE_MAIL_TO"}) {
      if (value(var))
        return InvalidArgument(std::string(var) +
                               " is set but DISKPULSE_SMTP_HOST is not: mail needs the SMTP server");
    }
  }
  if (auto url = value("DISKPULSE_MQTT_URL")) {
    json mqtt = {{"name", "env"}};
    DP_RETURN_IF_ERROR(MqttAddress(*url, mqtt));
    if (auto u = value("DISKPULSE_MQTT_USERNAME")) mqtt["username"] = *u;
    if (auto pw = value("DISKPULSE_MQTT_PASSWORD")) mqtt["password"] = *pw;
    alerts["mqtt"] = json::array({mqtt});
  } else if (value("DISKPULSE_MQTT_USERNAME") || value("DISKPULSE_MQTT_PASSWORD")) {
    return InvalidArgument("DISKPULSE_MQTT_USERNAME/PASSWORD are set but DISKPULSE_MQTT_URL is "
                           "not: give the broker as mqtt://HOST:1883");
  }
  if (auto url = value("DISKPULSE_WEBHOOK_URL"))
    alerts["webhooks"] = json::array({{{"name", "env"}, {"url", *url}}});
  return alerts;
}

}  // namespace

Status ApplyEnvironment(Config& c, const std::function<const char*(const char*)>& get) {
  const EnvGet value = [&](const char* name) -> std::optional<std::string> {
    const char* v = get(name);
    if (!v || !*v) return std::nullopt;
    return std::string(v);
  };
  if (auto listen = value("DISKPULSE_LISTEN")) {
    std::string why;
    if (!SplitListen(*listen, c.listen_host, c.listen_port, why))
      return InvalidArgument("DISKPULSE_LISTEN='" + *listen + "': " + why);
    c.listen = *listen;
  }
  if (auto token = value("DISKPULSE_API_TOKEN")) c.api_token = *token;
  if (auto token = value("DISKPULSE_READ_TOKEN")) c.read_token = *token;
  DP_RETURN_IF_ERROR(CheckTimeZone(value));

  // Destinations from the environment go through the file's own parser, so
  // they obey every rule a file's would ("environment: alerts.mail[0]...").
  DP_ASSIGN_OR_RETURN(json alerts, EnvironmentAlerts(value));
  if (alerts.empty()) return Status::Ok();
  auto parsed = ParseConfig(json{{"alerts", alerts}}.dump(), "environment");
  if (!parsed.ok()) return parsed.status();
  AlertsConfig& from_env = parsed->alerts_config;
  // A reload applies the environment again to a freshly parsed file, so
  // nothing is added twice; "env" replaces a destination of that name.
  auto put = [](auto& into, auto& items) {
    for (auto& item : items) {
      std::erase_if(into, [&](const auto& old) { return old.name == item.name; });
      into.push_back(std::move(item));
    }
  };
  put(c.alerts_config.mail, from_env.mail);
  put(c.alerts_config.mqtt, from_env.mqtt);
  put(c.alerts_config.webhooks, from_env.webhooks);
  return Status::Ok();
}

}  // namespace dp
