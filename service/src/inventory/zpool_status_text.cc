// `zpool status [-P] [-p] [-v] [-s]` as plain text, the only form before
// OpenZFS 2.3 and what Solaris and illumos print: header lines ("pool:",
// "state:", "scan:", old "scrub:"/"reason:"), then the config table whose
// indentation is the vdev tree. Separate from the JSON parser because text
// needs its own tolerance (hand-pasted indentation, rows without counters,
// rounded counters, prose scan lines) that JSON never needs.
#include <optional>
#include <regex>
#include <set>

#include "base/strings.h"
#include "inventory/text_lines.h"
#include "inventory/zpool_status_parser.h"
#include "inventory/zpool_status_tree.h"

namespace dp {
namespace {

using zpool_status::Node;
using zpool_status::ParseCounter;

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

// One config row: NAME [STATE [READ WRITE CKSUM [SLOW]]] [note...]; SLOW
// only when the header row named it (`zpool status -s`), so a note that
// starts with a number is never read as one.
std::unique_ptr<Node> ParseRow(const std::string& line, bool slow_column = false) {
  auto node = std::make_unique<Node>();
  node->indent = IndentOf(line);
  const auto toks = FieldSpans(line);
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

// The role of the vdevs under a section header row ("logs" -> "log"), or
// nullptr when name heads no section.
const char* SectionRole(const std::string& name) {
  for (const auto& s : zpool_status::kSections) {
    if (name == s.text) return s.role;
  }
  return nullptr;
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

// A config row that cannot be placed in the tree, and how many rows under it
// were left out with it: they belong to it, so hanging them under the pool
// would make, say, a log device look like a data vdev.
struct UnplacedRow {
  std::string text;
  int indent = 0;
  int under = 0;
};

std::string Describe(const Pool& pool, const UnplacedRow& u) {
  std::string s = "pool " + pool.name + ": config row '" + u.text +
                  "' not understood (not indented under the pool row); left out";
  if (u.under > 0)
    s += " with the " + std::to_string(u.under) + (u.under == 1 ? " row" : " rows") + " under it";
  return s;
}

Status BuildVdevs(PoolText& pt, std::vector<std::string>& warnings) {
  Pool& pool = pt.pool;
  std::unique_ptr<Node> root;
  std::vector<std::unique_ptr<Node>> sections;
  std::vector<Node*> stack;
  bool flat = false;
  bool slow_column = false;
  std::optional<UnplacedRow> unplaced;
  for (const auto& line : pt.config_lines) {
    std::unique_ptr<Node> row = ParseRow(line, slow_column);
    if (unplaced) {
      if (row->indent > unplaced->indent) {
        ++unplaced->under;
        continue;
      }
      warnings.push_back(Describe(pool, *unplaced));
      unplaced.reset();
    }
    if (row->name == "NAME" && row->state == "STATE") {
      slow_column = row->note.find("SLOW") != std::string::npos;
      continue;
    }
    if (!root) {
      root = std::move(row);
      stack = {root.get()};
      continue;
    }
    const char* role = SectionRole(row->name);
    if (role && row->state.empty() && row->indent <= root->indent) {
      row->section = true;
      row->role = role;
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
      unplaced = UnplacedRow{Trim(line), row->indent, 0};
      continue;
    }
    Node* raw = row.get();
    parent->children.push_back(std::move(row));
    stack.push_back(raw);
  }
  if (unplaced) warnings.push_back(Describe(pool, *unplaced));
  if (!root) {
    return Corrupt("pool " + pool.name + ": no vdev rows under config: (new zpool format?)");
  }
  for (const auto& c : root->children) pool.vdevs.push_back(zpool_status::ToVdev(*c, "data"));
  for (const auto& s : sections) {
    for (const auto& c : s->children) pool.vdevs.push_back(zpool_status::ToVdev(*c, s->role));
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<Pool>> ParseZpoolStatusText(std::string_view text,
                                               std::vector<std::string>* warnings) {
  std::vector<std::string> local;
  std::vector<std::string>& warn = warnings ? *warnings : local;
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
    DP_RETURN_IF_ERROR(BuildVdevs(pt, warn));
    ParseScan(pt.pool);
    zpool_status::DetectResilverFromRows(pt.pool);
    out.push_back(std::move(pt.pool));
  }
  return out;
}

}  // namespace dp
