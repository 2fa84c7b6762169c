#include "inventory/zpool_get_parser.h"

#include <cctype>
#include <optional>

#include "inventory/text_lines.h"

namespace dp {
namespace {

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (true) {
    std::size_t t = line.find('\t', b);
    out.push_back(line.substr(b, t == std::string::npos ? std::string::npos : t - b));
    if (t == std::string::npos) break;
    b = t + 1;
  }
  return out;
}

std::string_view StripDevFolder(std::string_view p) {
  static constexpr std::string_view kById = "/dev/disk/by-";
  if (p.substr(0, kById.size()) == kById) {
    auto slash = p.find('/', kById.size());
    if (slash != std::string_view::npos) return p.substr(slash + 1);
  }
  if (p.substr(0, 5) == "/dev/") return p.substr(5);
  return p;
}

// The name without the partition zpool leaves out for a whole disk, or ""
// when it names no partition.
std::string WithoutPartition(std::string_view n) {
  auto part = n.rfind("-part");
  if (part != std::string_view::npos && part + 5 < n.size()) {
    bool digits = true;
    for (std::size_t i = part + 5; i < n.size(); ++i) digits = digits && std::isdigit(n[i]);
    if (digits) return std::string(n.substr(0, part));
  }
  std::size_t end = n.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(n[end - 1]))) --end;
  if (end == n.size() || end == 0) return "";
  // nvme0n1p1 -> nvme0n1; sda1 -> sda (a letter before the digits).
  if (n[end - 1] == 'p' && end >= 2 && std::isdigit(static_cast<unsigned char>(n[end - 2])))
    return std::string(n.substr(0, end - 1));
  if (std::isalpha(static_cast<unsigned char>(n[end - 1])) && n.substr(0, 2) == "sd")
    return std::string(n.substr(0, end));
  if (std::isalpha(static_cast<unsigned char>(n[end - 1])) && n.substr(0, 2) == "vd")
    return std::string(n.substr(0, end));
  return "";
}

}  // namespace

Result<std::vector<ZpoolVdevProperty>> ParseZpoolGetVdevProperties(std::string_view text) {
  std::vector<ZpoolVdevProperty> out;
  for (const std::string& line : SplitLines(text)) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::vector<std::string> f = SplitTabs(line);
    if (f.size() != 3 && f.size() != 4) {
      return Corrupt("zpool get: \"" + line.substr(0, 120) +
                     "\" is not NAME<tab>PROPERTY<tab>VALUE" + "<tab>SOURCE (run with -H)");
    }
    if (f[0].empty() || f[1].empty()) {
      return Corrupt("zpool get: empty name or property in \"" + line.substr(0, 120) + "\"");
    }
    out.push_back({f[0], f[1], f[2], f.size() == 4 ? f[3] : ""});
  }
  return out;
}

Result<std::vector<ZpoolSpace>> ParseZpoolListSpace(std::string_view text) {
  std::vector<ZpoolSpace> out;
  auto bytes = [](const std::string& f) -> std::optional<std::uint64_t> {
    if (f.empty() || f.size() > 20 || f.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    try {
      return std::stoull(f);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  for (const std::string& line : SplitLines(text)) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::vector<std::string> f = SplitTabs(line);
    const auto size = f.size() == 3 ? bytes(f[1]) : std::nullopt;
    const auto alloc = f.size() == 3 ? bytes(f[2]) : std::nullopt;
    if (f.size() != 3 || f[0].empty() || !size || !alloc)
      return Corrupt("zpool list: \"" + line.substr(0, 120) +
                     "\" is not NAME<tab>SIZE<tab>ALLOCATED in bytes (run with -Hp)");
    out.push_back({f[0], *size, *alloc});
  }
  return out;
}

bool ZpoolVdevNameMatches(std::string_view vdev, std::string_view member_path) {
  if (vdev.empty() || member_path.empty()) return false;
  std::string_view v = StripDevFolder(vdev);
  std::string_view m = StripDevFolder(member_path);
  if (v == m) return true;
  std::string whole = WithoutPartition(m);
  return !whole.empty() && whole == v;
}

std::map<std::string, bool> ZpoolSitOutByMember(const std::vector<ZpoolVdevProperty>& lines,
                                                const std::vector<std::string>& member_paths) {
  std::map<std::string, bool> out;
  for (const std::string& path : member_paths) {
    const ZpoolVdevProperty* found = nullptr;
    int matches = 0;
    for (const auto& l : lines) {
      if (l.property != "sit_out" || !ZpoolVdevNameMatches(l.vdev, path)) continue;
      ++matches;
      found = &l;
    }
    if (matches != 1) continue;
    if (found->value == "on")
      out[path] = true;
    else if (found->value == "off")
      out[path] = false;
  }
  return out;
}

}  // namespace dp
