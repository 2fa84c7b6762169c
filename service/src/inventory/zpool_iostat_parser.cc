#include "inventory/zpool_iostat_parser.h"

#include <cmath>
#include <map>
#include <regex>

#include "inventory/text_lines.h"

namespace dp {
namespace {

int Indent(const std::string& line) {
  int n = 0;
  for (char c : line) {
    if (c == ' ') ++n;
    else if (c == '\t') n += 2;  // -H output; never nested there, kept for safety
    else break;
  }
  return n;
}

bool IsSeparator(const std::string& line) {
  bool dash = false;
  for (char c : line) {
    if (c == '-') dash = true;
    else if (c != ' ' && c != '\t') return false;
  }
  return dash;
}

bool IsBlank(const std::string& line) { return line.find_first_not_of(" \t") == std::string::npos; }

// "2.84K" (1024-based, as zfs_nicenum prints), "239", "39.9M"; nullopt for
// anything else ("-" included).
std::optional<double> ParseNicenum(const std::string& tok) {
  static const std::regex kNum(R"(^(\d+(?:\.\d+)?)([KMGTPE])?$)");
  std::smatch m;
  if (!std::regex_match(tok, m, kNum)) return std::nullopt;
  double x = std::stod(m[1].str());
  if (m[2].matched) {
    static const std::string kUnits = "KMGTPE";
    x *= std::pow(1024.0, static_cast<double>(kUnits.find(m[2].str()[0]) + 1));
  }
  return x;
}

const std::map<std::string, std::string>& Sections() {
  static const std::map<std::string, std::string> kSections = {
      {"logs", "logs"}, {"cache", "cache"}, {"spares", "spares"}, {"special", "special"},
      {"dedup", "dedup"}};
  return kSections;
}

// What one value column holds.
enum class Field {
  kSkip,  // capacity, queues, script output, unknown
  kReadOps, kWriteOps, kReadBytes, kWriteBytes,
  kTotalRead, kTotalWrite, kDiskRead, kDiskWrite, kSyncqRead, kSyncqWrite,
  kAsyncqRead, kAsyncqWrite, kScrub, kTrim, kRebuild,
};

bool IsTime(Field f) { return f >= Field::kTotalRead; }

struct Group {
  int width;
  std::vector<Field> fields;  // empty: skipped columns
};

// The header groups `zpool iostat` prints above its columns (zpool_main.c's
// iostat_top_labels), by name.
const std::map<std::string, Group>& KnownGroups() {
  static const std::map<std::string, Group> kGroups = {
      {"capacity", {2, {}}},
      {"operations", {2, {Field::kReadOps, Field::kWriteOps}}},
      {"bandwidth", {2, {Field::kReadBytes, Field::kWriteBytes}}},
      {"total_wait", {2, {Field::kTotalRead, Field::kTotalWrite}}},
      {"disk_wait", {2, {Field::kDiskRead, Field::kDiskWrite}}},
      {"syncq_wait", {2, {Field::kSyncqRead, Field::kSyncqWrite}}},
      {"asyncq_wait", {2, {Field::kAsyncqRead, Field::kAsyncqWrite}}},
      {"scrub", {1, {Field::kScrub}}},
      {"trim", {1, {Field::kTrim}}},
      {"rebuild", {1, {Field::kRebuild}}},
      // -q: queue depths, not latencies.
      {"syncq_read", {2, {}}},
      {"syncq_write", {2, {}}},
      {"asyncq_read", {2, {}}},
      {"asyncq_write", {2, {}}},
      {"scrubq_read", {2, {}}},
      {"trimq_write", {2, {}}},
      {"rebuildq_write", {2, {}}},
  };
  return kGroups;
}

// Columns from the two header lines. Columns right of the last group (the
// `-c` scripts' names, which have no group label) are skipped.
Result<std::vector<Field>> ColumnsFromHeader(const std::vector<std::string>& groups,
                                             std::size_t columns, const std::string& line) {
  std::size_t known = 0;
  int unknown = 0;
  for (const auto& g : groups) {
    auto it = KnownGroups().find(g);
    if (it == KnownGroups().end()) ++unknown;
    else known += static_cast<std::size_t>(it->second.width);
  }
  if (known > columns) {
    return Corrupt("zpool iostat header names more column groups than it has columns: \"" +
                   line.substr(0, 120) + "\"");
  }
  std::size_t unknown_width = 1;
  if (unknown > 0 && columns - known != static_cast<std::size_t>(unknown)) {
    if (unknown > 1) {
      return Corrupt("zpool iostat header has " + std::to_string(unknown) +
                     " column groups this parser does not know, so their columns cannot be told "
                     "apart (new zpool format?): \"" + line.substr(0, 120) + "\"");
    }
    unknown_width = columns - known;
  }
  std::vector<Field> out;
  for (const auto& g : groups) {
    auto it = KnownGroups().find(g);
    if (it == KnownGroups().end()) {
      out.insert(out.end(), unknown_width, Field::kSkip);
    } else if (it->second.fields.empty()) {
      out.insert(out.end(), static_cast<std::size_t>(it->second.width), Field::kSkip);
    } else {
      out.insert(out.end(), it->second.fields.begin(), it->second.fields.end());
    }
  }
  while (out.size() < columns) out.push_back(Field::kSkip);
  return out;
}

void Assign(VdevLatency& row, Field f, std::optional<double> v) {
  switch (f) {
    case Field::kReadOps: row.read_ops = v; break;
    case Field::kWriteOps: row.write_ops = v; break;
    case Field::kReadBytes: row.read_bytes = v; break;
    case Field::kWriteBytes: row.write_bytes = v; break;
    case Field::kTotalRead: row.total_wait_read = v; break;
    case Field::kTotalWrite: row.total_wait_write = v; break;
    case Field::kDiskRead: row.disk_wait_read = v; break;
    case Field::kDiskWrite: row.disk_wait_write = v; break;
    case Field::kSyncqRead: row.syncq_wait_read = v; break;
    case Field::kSyncqWrite: row.syncq_wait_write = v; break;
    case Field::kAsyncqRead: row.asyncq_wait_read = v; break;
    case Field::kAsyncqWrite: row.asyncq_wait_write = v; break;
    case Field::kScrub: row.scrub_wait = v; break;
    case Field::kTrim: row.trim_wait = v; break;
    case Field::kRebuild: row.rebuild_wait = v; break;
    case Field::kSkip: break;
  }
}

std::string Quote(const std::string& line) { return "\"" + line.substr(0, 120) + "\""; }

// Depth, vdev and leaf from the rows' indentation (two blanks a level).
void Shape(std::vector<VdevLatency>& rows, const std::vector<int>& indents, std::size_t from) {
  std::string top;
  for (std::size_t i = from; i < rows.size(); ++i) {
    VdevLatency& r = rows[i];
    r.depth = indents[i] / 2;
    if (r.depth == 0) top.clear();
    if (r.depth == 1) top = r.name;
    r.vdev = r.depth == 0 ? "" : top;
    r.leaf = r.depth > 0 && (i + 1 == rows.size() || indents[i + 1] <= indents[i]);
  }
}

}  // namespace

std::optional<double> ParseZpoolTime(std::string_view token) {
  static const std::regex kTime(R"(^(\d+(?:\.\d+)?)(ns|us|ms|s)?$)");
  std::string t(token);
  std::smatch m;
  if (!std::regex_match(t, m, kTime)) return std::nullopt;
  double x = std::stod(m[1].str());
  std::string unit = m[2].matched ? m[2].str() : "ns";  // -p prints nanoseconds
  if (unit == "ns") return x * 1e-9;
  if (unit == "us") return x * 1e-6;
  if (unit == "ms") return x * 1e-3;
  return x;
}

Result<std::vector<VdevLatency>> ParseZpoolIostatLatency(std::string_view text) {
  std::vector<std::string> lines = SplitLines(text);
  std::vector<VdevLatency> rows;
  std::vector<int> indents;
  std::vector<Field> columns;
  bool in_table = false;
  std::string pool;
  std::string section;
  std::size_t pool_start = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (IsBlank(line)) continue;
    std::vector<std::string> toks = SplitFields(line);
    // A header pair: group labels, then "pool alloc free read write ...".
    if (i + 1 < lines.size() && !toks.empty() && SplitFields(lines[i + 1]).size() > 1 &&
        SplitFields(lines[i + 1])[0] == "pool" && KnownGroups().count(toks[0])) {
      std::vector<std::string> sub = SplitFields(lines[i + 1]);
      DP_ASSIGN_OR_RETURN(columns, ColumnsFromHeader(toks, sub.size() - 1, line));
      for (std::size_t c = 0; c < columns.size(); ++c) {
        bool time = IsTime(columns[c]);
        const std::string& label = sub[c + 1];
        if (time && label != "read" && label != "write" && label != "wait") {
          return Corrupt("zpool iostat header not understood: column " + std::to_string(c + 2) +
                         " is \"" + label + "\" under a latency group: " + Quote(lines[i + 1]));
        }
      }
      // A new interval's report replaces the previous one.
      rows.clear();
      indents.clear();
      in_table = true;
      pool.clear();
      ++i;
      continue;
    }
    if (!in_table) {
      if (line.find("no pools available") != std::string::npos) return rows;
      return Corrupt("zpool iostat output not understood: expected its header, got " + Quote(line) +
                     " (run with -v -l; new zpool format?)");
    }
    if (IsSeparator(line)) continue;
    int indent = Indent(line);
    auto sect = Sections().find(toks[0]);
    bool all_dashes = true;
    for (std::size_t t = 1; t < toks.size(); ++t) all_dashes = all_dashes && toks[t] == "-";
    if (indent == 0 && !pool.empty() && sect != Sections().end() && all_dashes) {
      section = sect->second;
      continue;  // "logs", "cache", ...: its members follow one level in
    }
    if (toks.size() != columns.size() + 1) {
      return Corrupt("zpool iostat row " + Quote(line) + " has " + std::to_string(toks.size() - 1) +
                     " values where the header has " + std::to_string(columns.size()) +
                     " columns (truncated?)");
    }
    if (indent == 0) {
      Shape(rows, indents, pool_start);
      pool = toks[0];
      section.clear();
      pool_start = rows.size();
    } else if (pool.empty()) {
      return Corrupt("zpool iostat row " + Quote(line) + " is indented but no pool row came first");
    }
    VdevLatency row;
    row.pool = pool;
    row.name = toks[0];
    row.section = indent == 0 ? "" : section;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      Field f = columns[c];
      if (f == Field::kSkip) continue;
      const std::string& v = toks[c + 1];
      if (v == "-") continue;
      std::optional<double> x = IsTime(f) ? ParseZpoolTime(v) : ParseNicenum(v);
      if (!x) {
        return Corrupt("zpool iostat row " + Quote(line) + ": \"" + v + "\" in column " +
                       std::to_string(c + 2) + " is not a " + (IsTime(f) ? "time" : "number"));
      }
      Assign(row, f, x);
    }
    rows.push_back(std::move(row));
    indents.push_back(indent);
  }
  if (!in_table && !lines.empty()) {
    for (const auto& l : lines) {
      if (!IsBlank(l)) {
        return Corrupt("zpool iostat output not understood: no header line (new zpool format?)");
      }
    }
  }
  Shape(rows, indents, pool_start);
  return rows;
}

Result<std::vector<ZpoolLatencyHistogram>> ParseZpoolIostatHistogram(std::string_view text) {
  std::vector<std::string> lines = SplitLines(text);
  std::vector<ZpoolLatencyHistogram> out;
  ZpoolLatencyHistogram* cur = nullptr;
  bool in_rows = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (IsBlank(line)) continue;
    std::vector<std::string> toks = SplitFields(line);
    if (i + 1 < lines.size() && !SplitFields(lines[i + 1]).empty() &&
        SplitFields(lines[i + 1])[0] == "latency") {
      // "<name> total_wait disk_wait syncq_wait asyncq_wait" over
      // "latency read write read write ... scrub trim rebuild".
      std::vector<std::string> sub = SplitFields(lines[i + 1]);
      ZpoolLatencyHistogram h;
      h.name = toks[0];
      std::size_t c = 1;
      for (std::size_t g = 1; g < toks.size(); ++g) {
        if (c + 1 >= sub.size() || sub[c] != "read" || sub[c + 1] != "write") {
          return Corrupt("zpool iostat -w header not understood: " + Quote(line) + " over " +
                         Quote(lines[i + 1]));
        }
        h.columns.push_back(toks[g] + "_read");
        h.columns.push_back(toks[g] + "_write");
        c += 2;
      }
      for (; c < sub.size(); ++c) h.columns.push_back(sub[c]);
      if (h.columns.empty()) {
        return Corrupt("zpool iostat -w header has no columns: " + Quote(lines[i + 1]));
      }
      out.push_back(std::move(h));
      cur = &out.back();
      in_rows = false;
      ++i;
      continue;
    }
    if (!cur) {
      return Corrupt("zpool iostat -w output not understood: expected its header, got " +
                     Quote(line) + " (new zpool format?)");
    }
    if (IsSeparator(line)) {
      // The first separator opens the table, the second closes it.
      if (in_rows && !cur->bucket_seconds.empty()) cur = nullptr;
      in_rows = true;
      continue;
    }
    if (!in_rows) {
      return Corrupt("zpool iostat -w: " + Quote(line) + " before the table's separator line");
    }
    auto upper = ParseZpoolTime(toks[0]);
    if (!upper) {
      return Corrupt("zpool iostat -w: bucket label \"" + toks[0] + "\" is not a time in " +
                     Quote(line));
    }
    if (toks.size() != cur->columns.size() + 1) {
      return Corrupt("zpool iostat -w row " + Quote(line) + " has " +
                     std::to_string(toks.size() - 1) + " counts where the header has " +
                     std::to_string(cur->columns.size()) + " columns (truncated?)");
    }
    std::vector<std::optional<std::uint64_t>> counts;
    for (std::size_t c = 1; c < toks.size(); ++c) {
      if (toks[c] == "-") {
        counts.push_back(std::nullopt);
        continue;
      }
      auto n = ParseNicenum(toks[c]);
      if (!n) {
        return Corrupt("zpool iostat -w row " + Quote(line) + ": \"" + toks[c] +
                       "\" is not a count");
      }
      counts.push_back(static_cast<std::uint64_t>(std::llround(*n)));
    }
    cur->bucket_seconds.push_back(*upper);
    cur->counts.push_back(std::move(counts));
  }
  if (out.empty()) {
    for (const auto& l : lines) {
      if (!IsBlank(l)) return Corrupt("zpool iostat -w output not understood: no header line");
    }
  }
  for (const auto& h : out) {
    if (h.bucket_seconds.empty()) {
      return Corrupt("zpool iostat -w table of " + h.name + " has no rows (truncated?)");
    }
  }
  return out;
}

}  // namespace dp
