#include "inventory/zpool_status_parser.h"

#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "inventory/text_lines.h"

namespace dp {
namespace {

// Column of the first non-blank character, tabs to 8-column stops.
int IndentOf(const std::string& line) {
  int col = 0;
  for (char c : line) {
    if (c == ' ') ++col;
    else if (c == '\t') col = (col / 8 + 1) * 8;
    else break;
  }
  return col;
}

// An error counter as zpool prints it: "0", "342", or rounded by
// zfs_nicenum ("5.54M", 1024-based) unless -p was given.
struct Counter {
  std::uint64_t value = 0;
  bool approximate = false;
};

std::optional<Counter> ParseCounter(const std::string& tok) {
  static const std::regex kCounter(R"(^(\d+)(\.\d+)?([KMGTPE])?$)");
  std::smatch m;
  if (!std::regex_match(tok, m, kCounter)) return std::nullopt;
  Counter c;
  if (!m[2].matched && !m[3].matched) {
    try {
      c.value = std::stoull(m[1].str());
    } catch (const std::exception&) {
      return std::nullopt;
    }
    return c;
  }
  double x = std::stod(m[1].str() + m[2].str());
  static const std::string kUnits = "KMGTPE";
  int power = m[3].matched ? static_cast<int>(kUnits.find(m[3].str()[0])) + 1 : 0;
  double v = x * std::pow(1024.0, power);
  if (v > 1.8e19) return std::nullopt;
  c.value = static_cast<std::uint64_t>(std::llround(v));
  c.approximate = true;
  return c;
}

struct Node {
  std::string name, state, note;
  std::optional<Counter> read, write, cksum;
  std::optional<Counter> slow;  // `-s` SLOW column
  int indent = 0;
  bool section = false;  // logs / cache / spares / special / dedup header
  std::string role;      // for sections
  std::vector<std::unique_ptr<Node>> children;
};

const std::map<std::string, std::string>& SectionRoles() {
  static const std::map<std::string, std::string> kRoles = {
      {"logs", "log"}, {"cache", "cache"}, {"spares", "spare"},
      {"special", "special"}, {"dedup", "dedup"}};
  return kRoles;
}

// One config row: NAME [STATE [READ WRITE CKSUM [SLOW]]] [note...]; SLOW
// only when the header row named it (`zpool status -s`), so a note that
// starts with a number is never read as one.
std::unique_ptr<Node> ParseRow(const std::string& line, bool slow_column = false) {
  auto node = std::make_unique<Node>();
  node->indent = IndentOf(line);
  std::vector<std::pair<std::size_t, std::size_t>> toks;  // [begin, end)
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    std::size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    toks.emplace_back(b, i);
  }
  auto tok = [&](std::size_t k) { return line.substr(toks[k].first, toks[k].second - toks[k].first); };
  node->name = tok(0);
  std::size_t next = 1;
  if (toks.size() > 1) {
    node->state = tok(1);
    next = 2;
  }
  if (toks.size() >= 5) {
    auto r = ParseCounter(tok(2)), w = ParseCounter(tok(3)), c = ParseCounter(tok(4));
    if (r && w && c) {
      node->read = r;
      node->write = w;
      node->cksum = c;
      next = 5;
      if (slow_column && toks.size() > 5) {
        std::string t = tok(5);
        if (t == "-") {
          next = 6;
        } else if (auto sl = ParseCounter(t)) {
          node->slow = sl;
          next = 6;
        }
      }
    }
  }
  if (next < toks.size()) node->note = Trim(line.substr(toks[next].first));
  return node;
}

PoolMember ToMember(const Node& n, const std::string& parent) {
  PoolMember m;
  m.path = n.name;
  m.state = n.state;
  m.note = n.note;
  m.parent = parent;
  if (n.read) {
    m.read_errors = n.read->value;
    m.write_errors = n.write->value;
    m.checksum_errors = n.cksum->value;
    m.counters_approximate = n.read->approximate || n.write->approximate || n.cksum->approximate;
  }
  if (n.slow) m.slow_ios = n.slow->value;
  return m;
}

void Flatten(const Node& n, const std::string& parent, std::vector<PoolMember>& out) {
  for (const auto& c : n.children) {
    PoolMember m = ToMember(*c, parent);
    if (!c->children.empty()) {
      m.container = true;
      out.push_back(std::move(m));
      Flatten(*c, c->name, out);
    } else {
      out.push_back(std::move(m));
    }
  }
}

Vdev ToVdev(const Node& n, const std::string& role) {
  Vdev v;
  v.name = n.name;
  v.role = role;
  v.state = n.state;
  std::string type = VdevTypeFromName(n.name);
  if (n.children.empty() && type == "disk") {
    v.type = "disk";
    v.members.push_back(ToMember(n, ""));
  } else {
    v.type = type;
    Flatten(n, "", v.members);
  }
  return v;
}

void ParseScan(Pool& pool) {
  std::string t = AsciiLower(pool.scan.text);
  PoolScan& s = pool.scan;
  auto has = [&](const char* what) { return t.find(what) != std::string::npos; };
  if (t.empty() || has("none requested")) {
    s.function = "none";
    s.state = "none";
  } else {
    s.function = has("resilver") ? "resilver" : has("scrub") ? "scrub" : "";
    if (has("in progress")) s.state = "in_progress";
    else if (has("paused")) s.state = "paused";
    else if (has("canceled") || has("cancelled")) s.state = "canceled";
    else if (has("repaired") || has("resilvered") || has("completed")) s.state = "finished";
    else s.state = "unknown";
    // Old Solaris: "scrub: resilver completed" mentions both words.
    if (t.rfind("resilver", 0) == 0) s.function = "resilver";
    if (t.rfind("scrub ", 0) == 0 && t.find("resilver") == std::string::npos) s.function = "scrub";
    if (s.function.empty()) s.function = "unknown";
  }
  if (s.state == "in_progress" || s.state == "paused") {
    static const std::regex kPct(R"(([\d.]+)% done)");
    std::smatch m;
    if (std::regex_search(t, m, kPct)) {
      try {
        s.percent = std::stod(m[1].str());
      } catch (const std::exception&) {
      }
    }
  }
}

// illumos prints "scrub: none requested" while a replacing vdev says
// "52% resilvered"; OpenZFS marks members "(resilvering)". Either way the
// pool is resilvering and must be left alone.
void DetectResilverFromRows(Pool& pool) {
  if (pool.scan.state == "in_progress") return;
  static const std::regex kPct(R"(([\d.]+)% resilvered)");
  for (const auto& v : pool.vdevs) {
    for (const auto& m : v.members) {
      std::smatch sm;
      bool pct = std::regex_search(m.note, sm, kPct);
      if (pct || m.note.find("(resilvering)") != std::string::npos) {
        pool.scan.function = "resilver";
        pool.scan.state = "in_progress";
        if (pct) pool.scan.percent = std::stod(sm[1].str());
        return;
      }
    }
  }
}

const std::set<std::string>& HeaderKeys() {
  static const std::set<std::string> kKeys = {
      "pool", "id", "state", "status", "reason", "action", "see", "scan", "scrub", "config",
      "errors", "remove", "checkpoint", "dedup", "expand", "prune", "raidz expand", "comment"};
  return kKeys;
}

// "  scan: scrub repaired ..." -> {"scan", "scrub repaired ..."}.
std::optional<std::pair<std::string, std::string>> HeaderLine(const std::string& line) {
  std::string t = Trim(line);
  auto colon = t.find(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  std::string key = t.substr(0, colon);
  if (!HeaderKeys().count(key)) return std::nullopt;
  if (colon + 1 < t.size() && t[colon + 1] != ' ' && t[colon + 1] != '\t') return std::nullopt;
  return std::make_pair(key, Trim(t.substr(colon + 1)));
}

struct PoolText {
  Pool pool;
  bool saw_config = false;
  std::vector<std::string> config_lines;
};

Status BuildVdevs(PoolText& pt) {
  Pool& pool = pt.pool;
  std::unique_ptr<Node> root;
  std::vector<std::unique_ptr<Node>> sections;
  std::vector<Node*> stack;
  bool flat = false;
  bool slow_column = false;
  for (const auto& line : pt.config_lines) {
    std::unique_ptr<Node> row = ParseRow(line, slow_column);
    if (row->name == "NAME" && row->state == "STATE") {
      slow_column = row->note.find("SLOW") != std::string::npos;
      continue;
    }
    if (!root) {
      root = std::move(row);
      stack = {root.get()};
      continue;
    }
    auto role = SectionRoles().find(row->name);
    if (role != SectionRoles().end() && row->state.empty() && row->indent <= root->indent) {
      row->section = true;
      row->role = role->second;
      sections.push_back(std::move(row));
      stack = {sections.back().get()};
      continue;
    }
    if (!flat && stack.size() == 1 && stack.back() == root.get() && root->children.empty() &&
        row->indent <= root->indent) {
      flat = true;  // pasted output whose leading blanks were lost
    }
    if (flat) {
      // Without indentation only single-disk vdevs are unambiguous.
      if (VdevTypeFromName(row->name) != "disk") {
        return Corrupt("pool " + pool.name + ": config rows have lost their indentation, so '" +
                       row->name + "' cannot be told apart from its members; paste the output "
                       "with its leading blanks");
      }
      stack.back()->children.push_back(std::move(row));
      continue;
    }
    while (stack.size() > 1 && stack.back()->indent >= row->indent) stack.pop_back();
    Node* parent = stack.back();
    if (row->indent <= parent->indent) {
      return Corrupt("pool " + pool.name + ": config row '" + Trim(line) +
                     "' is not indented under the pool (new zpool format?)");
    }
    Node* raw = row.get();
    parent->children.push_back(std::move(row));
    stack.push_back(raw);
  }
  if (!root) {
    return Corrupt("pool " + pool.name + ": no vdev rows under config: (new zpool format?)");
  }
  for (const auto& c : root->children) pool.vdevs.push_back(ToVdev(*c, "data"));
  for (const auto& s : sections) {
    for (const auto& c : s->children) pool.vdevs.push_back(ToVdev(*c, s->role));
  }
  return Status::Ok();
}

}  // namespace

std::string VdevTypeFromName(std::string_view name_in) {
  std::string name(name_in);
  static const std::regex kSuffix(R"(^(.*?)-\d+$)");
  std::smatch m;
  std::string base = std::regex_match(name, m, kSuffix) ? m[1].str() : name;
  if (base == "mirror") return "mirror";
  if (base == "raidz" || base == "raidz1") return "raidz1";
  if (base == "raidz2" || base == "raidz3") return base;
  if (base.rfind("draid", 0) == 0 && (base.size() == 5 || std::isdigit(static_cast<unsigned char>(base[5])))) {
    return "draid";
  }
  if (base == "replacing") return "replacing";
  if (base == "spare") return "spare";
  if (base == "indirect") return "indirect";
  return "disk";
}

Result<std::vector<Pool>> ParseZpoolStatusText(std::string_view text) {
  std::vector<std::string> lines = SplitLines(text);
  std::vector<PoolText> pools;
  std::string key;  // the header whose continuation lines follow
  bool in_errors = false;
  for (const auto& line : lines) {
    std::string t = Trim(line);
    auto header = HeaderLine(line);
    if (header && header->first == "pool") {
      pools.emplace_back();
      pools.back().pool.name = header->second;
      key = "pool";
      in_errors = false;
      continue;
    }
    if (pools.empty()) {
      if (t.empty() || t == "no pools available" || t == "all pools are healthy") continue;
      return Corrupt("zpool status output not understood: expected a 'pool:' line, got \"" +
                     t.substr(0, 80) + "\" (new zpool format?)");
    }
    PoolText& pt = pools.back();
    Pool& pool = pt.pool;
    if (header) {
      key = header->first;
      in_errors = false;
      const std::string& v = header->second;
      if (key == "state") pool.state = v;
      else if (key == "status" || key == "reason") pool.status = v;
      else if (key == "scan" || key == "scrub") pool.scan.text = v;
      else if (key == "config") pt.saw_config = true;
      else if (key == "errors") {
        pool.errors = pool.errors.empty() ? v : pool.errors + "; " + v;
        in_errors = true;
      }
      continue;
    }
    if (t.empty()) {
      if (key == "status" || key == "scan" || key == "action") key = "";
      continue;
    }
    if (key == "config") {
      pt.config_lines.push_back(line);
    } else if (in_errors) {
      pool.error_files.push_back(t);
    } else if (key == "status" || key == "reason") {
      pool.status += " " + t;
    } else if (key == "scan" || key == "scrub") {
      pool.scan.text += "\n" + t;
    }
    // Continuations of action:, see:, and unknown sections are not kept.
  }
  std::vector<Pool> out;
  for (auto& pt : pools) {
    if (!pt.saw_config) {
      return Corrupt("pool " + pt.pool.name + ": no config: section (new zpool format?)");
    }
    DP_RETURN_IF_ERROR(BuildVdevs(pt));
    ParseScan(pt.pool);
    DetectResilverFromRows(pt.pool);
    out.push_back(std::move(pt.pool));
  }
  return out;
}

namespace {

using ojson = nlohmann::ordered_json;

// Integers, or strings of digits (without --json-int), or nicenum strings.
std::optional<Counter> JsonCounter(const ojson& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return std::nullopt;
  if (it->is_number_unsigned()) return Counter{it->get<std::uint64_t>(), false};
  if (it->is_string()) return ParseCounter(it->get<std::string>());
  return std::nullopt;
}

std::string JsonString(const ojson& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::unique_ptr<Node> JsonNode(const ojson& v, int depth) {
  auto n = std::make_unique<Node>();
  n->name = JsonString(v, "name");
  std::string path = JsonString(v, "path");
  if (!path.empty()) n->name = path;
  n->state = JsonString(v, "state");
  n->read = JsonCounter(v, "read_errors");
  n->write = JsonCounter(v, "write_errors");
  n->cksum = JsonCounter(v, "checksum_errors");
  if (!(n->read && n->write && n->cksum)) n->read = n->write = n->cksum = std::nullopt;
  n->slow = JsonCounter(v, "slow_ios");  // `zpool status -j -s`
  std::string type = JsonString(v, "vdev_type");
  // Name the vdev by its type when the name alone would say "disk".
  if (path.empty() && VdevTypeFromName(n->name) == "disk" && !type.empty() && type != "disk" &&
      type != "file" && type != "root") {
    n->name = type + "-" + n->name;
  }
  if (depth < 8) {
    if (auto c = v.find("vdevs"); c != v.end() && c->is_object()) {
      for (const auto& [k, child] : c->items()) {
        if (child.is_object()) n->children.push_back(JsonNode(child, depth + 1));
      }
    }
  }
  return n;
}

}  // namespace

Result<std::vector<Pool>> ParseZpoolStatusJson(std::string_view text) {
  ojson j;
  try {
    j = ojson::parse(text.begin(), text.end());
  } catch (const ojson::exception& e) {  // parse_error, or out_of_range for 1e400
    return Corrupt(std::string("zpool status JSON is not valid (truncated?): ") + e.what());
  }
  auto pools_it = j.find("pools");
  if (!j.is_object() || pools_it == j.end() || !pools_it->is_object()) {
    return Corrupt("zpool status JSON has no \"pools\" object (new format?)");
  }
  std::vector<Pool> out;
  for (const auto& [key, pj] : pools_it->items()) {
    if (!pj.is_object()) return Corrupt("zpool status JSON: pool " + key + " is not an object");
    Pool pool;
    pool.name = JsonString(pj, "name");
    if (pool.name.empty()) pool.name = key;
    pool.state = JsonString(pj, "state");
    if (auto ss = pj.find("scan_stats"); ss != pj.end() && ss->is_object()) {
      std::string fn = AsciiLower(JsonString(*ss, "function"));
      std::string st = AsciiLower(JsonString(*ss, "state"));
      pool.scan.text = ss->dump();
      pool.scan.function = fn.empty() || fn == "none" ? "none" : fn;
      if (st == "scanning") pool.scan.state = "in_progress";
      else if (st == "finished") pool.scan.state = "finished";
      else if (st == "canceled") pool.scan.state = "canceled";
      else if (st.empty() || st == "none") pool.scan.state = "none";
      else pool.scan.state = "unknown";
      if (pool.scan.state == "in_progress") {
        auto total = JsonCounter(*ss, "to_examine");
        auto done = JsonCounter(*ss, "issued");
        if (!done) done = JsonCounter(*ss, "examined");
        if (total && done && total->value > 0) {
          pool.scan.percent = std::min(100.0, 100.0 * static_cast<double>(done->value) /
                                                  static_cast<double>(total->value));
        }
      }
    } else {
      pool.scan.function = "none";
      pool.scan.state = "none";
    }
    if (auto ec = JsonCounter(pj, "error_count")) {
      pool.errors = ec->value == 0 ? "No known data errors"
                                   : std::to_string(ec->value) + " data errors, use '-v' for a list";
    }
    auto vdevs = pj.find("vdevs");
    if (vdevs == pj.end() || !vdevs->is_object() || vdevs->empty()) {
      return Corrupt("zpool status JSON: pool " + pool.name + " has no vdevs (new format?)");
    }
    // The single root vdev carries the data vdevs as children.
    for (const auto& [rk, rootj] : vdevs->items()) {
      if (!rootj.is_object()) continue;
      auto root = JsonNode(rootj, 0);
      for (const auto& c : root->children) pool.vdevs.push_back(ToVdev(*c, "data"));
    }
    for (const auto& [sect, role] : std::vector<std::pair<const char*, const char*>>{
             {"logs", "log"}, {"l2cache", "cache"}, {"spares", "spare"},
             {"special", "special"}, {"dedup", "dedup"}}) {
      auto it = pj.find(sect);
      if (it == pj.end() || !it->is_object()) continue;
      for (const auto& [k, vj] : it->items()) {
        if (vj.is_object()) pool.vdevs.push_back(ToVdev(*JsonNode(vj, 0), role));
      }
    }
    DetectResilverFromRows(pool);
    out.push_back(std::move(pool));
  }
  return out;
}

Result<std::vector<Pool>> ParseZpoolStatus(std::string_view text) {
  auto b = text.find_first_not_of(" \t\r\n");
  if (b != std::string_view::npos && text[b] == '{') return ParseZpoolStatusJson(text);
  return ParseZpoolStatusText(text);
}

}  // namespace dp
