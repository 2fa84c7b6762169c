#include "inventory/drive_identity.h"

#include <cctype>

namespace dp {

std::string TrimField(std::string_view s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::optional<std::string> NormaliseWwn(std::string_view text) {
  std::string s = TrimField(text);
  for (std::string_view prefix : {"wwn-0x", "naa.", "0x", "0X"}) {
    if (s.rfind(prefix, 0) == 0) {
      s = s.substr(prefix.size());
      break;
    }
  }
  if (s.size() != 16 && s.size() != 32) return std::nullopt;
  for (char& c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (s.size() == 16 && s[0] != '2' && s[0] != '3' && s[0] != '5') return std::nullopt;
  if (s.size() == 32 && s[0] != '6') return std::nullopt;
  return s;
}

std::string ModelFromVendorProduct(std::string_view vendor, std::string_view product) {
  std::string v = TrimField(vendor), p = TrimField(product);
  if (v.empty() || v == "ATA") return p;
  if (p.empty()) return v;
  return v + " " + p;
}

}  // namespace dp
