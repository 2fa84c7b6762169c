// What the `zpool status` text and JSON parsers share: counters, the
// row tree's conversion to vdevs and members, resilver detection from member
// notes and vdev type names; and the choice between the two parsers.
#include "inventory/zpool_status_parser.h"

#include <cctype>
#include <cmath>
#include <regex>

#include "inventory/zpool_status_tree.h"

namespace dp {
namespace zpool_status {

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

namespace {

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

}  // namespace

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

}  // namespace zpool_status

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

Result<std::vector<Pool>> ParseZpoolStatus(std::string_view text,
                                           std::vector<std::string>* warnings) {
  auto b = text.find_first_not_of(" \t\r\n");
  if (b != std::string_view::npos && text[b] == '{') return ParseZpoolStatusJson(text);
  return ParseZpoolStatusText(text, warnings);
}

}  // namespace dp
