#include "config/config.h"

#include <sys/stat.h>

#include <cerrno>

#include <fstream>
#include <set>
#include <sstream>

#include "base/log.h"
#include "config/json_kind.h"
#include "config/key_line.h"

namespace dp {
namespace {

using nlohmann::json;

// Walks one JSON object, reading known keys into fields and recording a
// problem for every wrong type and every unknown key.
class Reader {
 public:
  Reader(const json& obj, std::string prefix, std::vector<std::string>& errors,
         std::string_view text, std::string_view file)
      : obj_(obj), prefix_(std::move(prefix)), errors_(errors), text_(text), file_(file) {}

  ~Reader() {
    for (auto it = obj_.begin(); it != obj_.end(); ++it) {
      if (!seen_.count(it.key())) Error(it.key(), "unknown key (misspelt?)");
    }
  }

  void Error(std::string_view key, std::string_view what) {
    std::string path = prefix_.empty() ? std::string(key) : prefix_ + "." + std::string(key);
    int line = LineOfKeyPath(text_, path);
    std::string msg(file_);
    if (line > 0) msg += ":" + std::to_string(line);
    msg += ": " + path + ": " + std::string(what);
    errors_.push_back(std::move(msg));
  }

  const json* Find(const char* key) {
    seen_.insert(key);
    auto it = obj_.find(key);
    if (it == obj_.end()) return nullptr;
    return &*it;
  }

  void String(const char* key, std::string& out) {
    if (const json* v = Find(key)) {
      if (v->is_string()) out = v->get<std::string>();
      else Error(key, std::string("expected a string, found ") + JsonKind(*v));
    }
  }

  void Bool(const char* key, bool& out) {
    if (const json* v = Find(key)) {
      if (v->is_boolean()) out = v->get<bool>();
      else Error(key, std::string("expected true or false, found ") + JsonKind(*v));
    }
  }

  void StringList(const char* key, std::vector<std::string>& out) {
    const json* v = Find(key);
    if (!v) return;
    if (!v->is_array()) {
      Error(key, std::string("expected an array of strings, found ") + JsonKind(*v));
      return;
    }
    out.clear();
    for (const auto& e : *v) {
      if (!e.is_string()) {
        Error(key, "expected an array of strings, found an element that is " +
                       std::string(JsonKind(e)));
        return;
      }
      out.push_back(e.get<std::string>());
    }
  }

  template <typename T>
  void Number(const char* key, T& out, double min, double max) {
    const json* v = Find(key);
    if (!v) return;
    if (!v->is_number()) {
      Error(key, std::string("expected a number, found ") + JsonKind(*v));
      return;
    }
    double d = v->get<double>();
    // Range first: 99999999999999999999 is parsed as a float, but is "too big"
    // rather than "not whole".
    if (d < min || d > max) {
      std::ostringstream os;
      os << "must be between " << min << " and " << max << ", found " << v->dump();
      Error(key, os.str());
      return;
    }
    if constexpr (std::is_integral_v<T>) {
      if (!v->is_number_integer() && !v->is_number_unsigned()) {
        Error(key, "expected a whole number, found " + v->dump());
        return;
      }
    }
    out = static_cast<T>(d);
  }

  // Calls fn(Reader&) for a nested object.
  template <typename Fn>
  void Object(const char* key, Fn fn) {
    const json* v = Find(key);
    if (!v) return;
    if (!v->is_object()) {
      Error(key, std::string("expected an object, found ") + JsonKind(*v));
      return;
    }
    Reader sub(*v, prefix_.empty() ? key : prefix_ + "." + key, errors_, text_, file_);
    fn(sub);
  }

  // Keeps the raw JSON of a key whose contents another module validates.
  void Raw(const char* key, json& out, json::value_t want) {
    const json* v = Find(key);
    if (!v) return;
    if (v->type() != want) {
      Error(key, std::string("expected ") + (want == json::value_t::array ? "an array" : "an object") +
                     ", found " + JsonKind(*v));
      return;
    }
    out = *v;
  }

  const std::string& prefix() const { return prefix_; }
  std::vector<std::string>& errors() { return errors_; }
  std::string_view text() const { return text_; }
  std::string_view file() const { return file_; }

 private:
  const json& obj_;
  std::string prefix_;
  std::vector<std::string>& errors_;
  std::string_view text_;
  std::string_view file_;
  std::set<std::string> seen_;
};

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

void ParseRoot(Reader& r, Config& c) {
  r.String("listen", c.listen);
  r.String("database", c.database);
  r.String("webui_root", c.webui_root);
  r.String("pidfile", c.pidfile);
  r.String("log_level", c.log_level);
  r.String("log_target", c.log_target);
  r.String("api_token", c.api_token);
  r.String("user", c.user);
  r.String("replay_dir", c.replay_dir);
  r.Object("tls", [&](Reader& t) {
    t.String("cert_file", c.tls.cert_file);
    t.String("key_file", c.tls.key_file);
    if (c.tls.cert_file.empty() != c.tls.key_file.empty())
      t.Error(c.tls.cert_file.empty() ? "cert_file" : "key_file",
              "cert_file and key_file go together: set both or neither");
  });
  r.Object("http", [&](Reader& h) {
    h.Number("max_connections", c.http.max_connections, 1, 100000);
    h.Number("read_timeout_seconds", c.http.read_timeout_seconds, 1, 3600);
    h.Number("max_body_bytes", c.http.max_body_bytes, 0, 1ULL << 30);
    h.Number("max_header_bytes", c.http.max_header_bytes, 1024, 1 << 20);
  });
  r.Object("tools", [&](Reader& t) {
    t.String("smartctl", c.tools.smartctl);
    t.String("zpool", c.tools.zpool);
    t.String("geom", c.tools.geom);
    t.String("diskinfo", c.tools.diskinfo);
    t.String("camcontrol", c.tools.camcontrol);
    t.Number("timeout_seconds", c.tools.timeout_seconds, 1, 86400);
  });
  r.Object("inventory", [&](Reader& i) {
    i.StringList("include", c.inventory.include);
    i.StringList("exclude", c.inventory.exclude);
    i.String("sysfs_root", c.inventory.sysfs_root);
    i.String("dev_root", c.inventory.dev_root);
    i.String("udev_data_dir", c.inventory.udev_data_dir);
    i.String("proc_root", c.inventory.proc_root);
    i.String("platform", c.inventory.platform);
    if (!c.inventory.platform.empty() && c.inventory.platform != "linux" &&
        c.inventory.platform != "freebsd")
      i.Error("platform", "expected linux or freebsd, found '" + c.inventory.platform + "'");
    i.Number("interval_seconds", c.inventory.interval_seconds, 60, 7 * 86400);
    i.Number("zfs_sample_minutes", c.inventory.zfs_sample_minutes, 0, 24 * 60);
  });
  r.Object("bench", [&](Reader& b) {
    b.String("engine", c.bench.engine);
    if (c.bench.engine != "auto" && c.bench.engine != "pread" && c.bench.engine != "uring")
      b.Error("engine", "expected auto, pread or uring, found '" + c.bench.engine + "'");
    b.String("scratch_dir", c.bench.scratch_dir);
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
  r.Object("retention", [&](Reader& k) {
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
  if (const json* t = r.Find("targets")) {
    if (!t->is_array()) {
      r.Error("targets", std::string("expected an array of {\"path\", \"name\"}, found ") +
                             JsonKind(*t));
    } else {
      for (std::size_t i = 0; i < t->size(); ++i) {
        const json& e = (*t)[i];
        std::string key = "targets[" + std::to_string(i) + "]";
        if (!e.is_object()) {
          r.Error(key, std::string("expected an object, found ") + JsonKind(e));
          continue;
        }
        TargetConfig tc;
        {
          Reader tr(e, key, r.errors(), r.text(), r.file());
          tr.String("path", tc.path);
          tr.String("name", tc.name);
          if (tc.path.empty()) tr.Error("path", "required: the device or file to test");
        }
        if (tc.name.empty()) tc.name = tc.path.substr(tc.path.find_last_of('/') + 1);
        c.targets.push_back(tc);
      }
    }
  }
  r.Raw("schedules", c.schedules, json::value_t::array);
  if (const json* s = r.Find("schedules"); s && s->is_array())
    ParseSchedulesJson(*s, r.text(), r.file(), c.bench.scratch_dir, c.schedule_list, c.targets,
                       r.errors());
  if (const json* s = r.Find("scheduler"))
    ParseSchedulerJson(*s, r.text(), r.file(), c.scheduler, r.errors());
  r.Raw("alerts", c.alerts, json::value_t::object);
  if (const json* a = r.Find("alerts"); a && a->is_object()) {
    // Messages come back as "alerts.a.b[0].c: what"; point at the last key's line.
    auto parsed = ParseAlertsConfig(*a);
    if (parsed.ok()) {
      c.alerts_config = std::move(parsed).value();
    } else {
      std::istringstream lines(parsed.status().message());
      for (std::string line; std::getline(lines, line);) {
        std::string path = line.substr(0, line.find(": "));
        int at = LineOfKeyPath(r.text(), path);
        r.errors().push_back(std::string(r.file()) + (at > 0 ? ":" + std::to_string(at) : "") +
                             ": " + line);
      }
    }
  }

  std::string why;
  if (!SplitListen(c.listen, c.listen_host, c.listen_port, why)) r.Error("listen", why);
  if (!ParseLogLevel(c.log_level).ok())
    r.Error("log_level", "expected debug, info, warning or error, found '" + c.log_level + "'");
  if (c.log_target != "stderr" && c.log_target != "syslog")
    r.Error("log_target", "expected stderr or syslog, found '" + c.log_target + "'");
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
  std::vector<std::string> errors;
  {
    Reader root(doc, "", errors, text, file_name);
    ParseRoot(root, config);
  }
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors) {
      if (!all.empty()) all += '\n';
      all += e;
    }
    return InvalidArgument(all);
  }
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
  return ParseConfig(ss.str(), path);
}

}  // namespace dp
