#include "inventory/mdstat_parser.h"

#include <locale>
#include <optional>
#include <regex>
#include <sstream>

namespace dp {
namespace {

// "12.5" -> 12.5; nullopt for anything that is not one whole number, "." and
// a thousand digits (out of range) included. A stream in the classic locale
// rather than floating-point std::from_chars, which libc++ only has from
// LLVM 17 (older FreeBSD 13 releases' base compiler lacks it).
std::optional<double> ParseDecimal(const std::string& digits) {
  std::istringstream in(digits);
  in.imbue(std::locale::classic());
  double v = 0;
  if (!(in >> v) || in.peek() != std::char_traits<char>::eof()) return std::nullopt;
  return v;
}

}  // namespace

Result<std::vector<Pool>> ParseMdstat(std::string_view text) {
  std::vector<Pool> out;
  std::istringstream in{std::string(text)};
  static const std::regex kArray(R"(^(md\S+)\s*:\s*(\S+)\s*(.*)$)");
  static const std::regex kMember(R"(^([^\[\s]+)\[(\d+)\](\([A-Z]\))*$)");
  static const std::regex kHealth(R"(\[(\d+)/(\d+)\]\s*\[([U_]+)\])");
  static const std::regex kProgress(R"((resync|recovery|check|repair|reshape)\s*=\s*([\d.]+)%)");
  static const std::regex kPending(R"((resync|recovery|check|repair|reshape)\s*=\s*(DELAYED|PENDING))");
  bool saw_personalities = false;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (line.rfind("Personalities", 0) == 0) {
      saw_personalities = true;
      continue;
    }
    if (std::regex_match(line, m, kArray)) {
      Pool p;
      p.kind = "md";
      p.name = m[1].str();
      std::string activity = m[2].str();
      std::istringstream rest(m[3].str());
      std::vector<std::string> words;
      for (std::string w; rest >> w;) words.push_back(w);
      std::size_t i = 0;
      while (i < words.size() && words[i].front() == '(') ++i;  // (auto-read-only), (read-only)
      Vdev v;
      v.name = p.name;
      v.role = "data";
      if (i < words.size() && words[i].find('[') == std::string::npos) v.type = words[i++];
      for (; i < words.size(); ++i) {
        std::smatch mm;
        if (!std::regex_match(words[i], mm, kMember)) continue;
        PoolMember member;
        member.path = mm[1].str();
        std::string flags = words[i].substr(mm[1].length());
        if (flags.find("(F)") != std::string::npos) member.state = "FAULTED";
        else if (flags.find("(S)") != std::string::npos) member.state = "SPARE";
        else if (flags.find("(R)") != std::string::npos) member.state = "REPLACEMENT";
        else member.state = "ONLINE";
        if (flags.find("(W)") != std::string::npos) member.note = "write-mostly";
        v.members.push_back(std::move(member));
      }
      p.state = activity == "active" ? "ONLINE" : "INACTIVE";
      v.state = p.state;
      p.scan.function = "none";
      p.scan.state = "none";
      p.vdevs.push_back(std::move(v));
      out.push_back(std::move(p));
      continue;
    }
    if (out.empty() || line.empty() || (line[0] != ' ' && line[0] != '\t')) continue;
    Pool& p = out.back();
    if (std::regex_search(line, m, kHealth)) {
      if (m[3].str().find('_') != std::string::npos) {
        p.state = "DEGRADED";
        p.vdevs.back().state = "DEGRADED";
      }
    }
    if (std::regex_search(line, m, kProgress)) {
      p.scan.function = m[1].str();
      p.scan.state = "in_progress";
      // The pattern lets "." and a thousand digits through; std::stod would
      // throw on both (out of the discovery thread). The share stays unknown.
      if (auto percent = ParseDecimal(m[2].str()); percent && *percent >= 0 && *percent <= 100)
        p.scan.percent = *percent;
      p.scan.text = line.substr(line.find_first_not_of(" \t"));
    } else if (std::regex_search(line, m, kPending)) {
      p.scan.function = m[1].str();
      p.scan.state = "in_progress";  // waiting its turn: it will hit the members soon
      p.scan.text = line;
    }
  }
  if (out.empty() && !saw_personalities && text.find_first_not_of(" \t\r\n") != std::string_view::npos) {
    return Corrupt("/proc/mdstat not understood: no 'Personalities' line and no md arrays");
  }
  return out;
}

}  // namespace dp
