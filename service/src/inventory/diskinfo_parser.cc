#include "inventory/diskinfo_parser.h"

#include <vector>

#include "inventory/drive_identity.h"

namespace dp {
namespace {

// The descriptions diskinfo prints after '#', longest first so "mediasize in
// sectors" is not taken for "mediasize".
const std::vector<std::string>& Keys() {
  static const std::vector<std::string> kKeys = {
      "mediasize in sectors", "mediasize in bytes", "Cylinders according to firmware.",
      "Heads according to firmware.", "Sectors according to firmware.", "TRIM/UNMAP support",
      "Rotation rate in RPM", "Physical path", "Disk descr.", "Disk ident.", "Attachment",
      "stripeoffset", "sectorsize", "stripesize", "Zone Mode"};
  return kKeys;
}

std::optional<std::uint64_t> Number(const std::string& v) {
  if (v.empty() || v.size() > 19) return std::nullopt;
  std::uint64_t x = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return std::nullopt;
    x = x * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return x;
}

// The last blank-separated word of s.
std::string LastWord(const std::string& s) {
  std::string t = TrimField(s);
  auto sp = t.find_last_of(" \t");
  return sp == std::string::npos ? t : t.substr(sp + 1);
}

}  // namespace

Result<DiskinfoInfo> ParseDiskinfo(std::string_view text_in) {
  std::string text(text_in);
  DiskinfoInfo info;
  // Stop at the -c/-t sections.
  for (const char* section : {"I/O command overhead:", "Seek times:", "Transfer rates:"}) {
    auto p = text.find(section);
    if (p != std::string::npos) text.resize(p);
  }
  // Walk the '#' markers. The value of a key is the text between the end of
  // the previous key (or the line start) and its '#'.
  std::size_t value_start = 0;
  bool first = true;
  std::size_t pos = 0;
  while ((pos = text.find('#', pos)) != std::string::npos) {
    std::size_t key_at = text.find_first_not_of(" \t", pos + 1);
    if (key_at == std::string::npos) break;
    const std::string* key = nullptr;
    for (const auto& k : Keys()) {
      if (text.compare(key_at, k.size(), k) == 0) {
        key = &k;
        break;
      }
    }
    std::size_t line_start = text.rfind('\n', pos);
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    std::size_t from = std::max(value_start, line_start);
    std::string segment = text.substr(from, pos - from);
    std::size_t key_end = key ? key_at + key->size() : key_at;
    // "# mediasize in bytes (1.8T)": skip the human-readable size.
    std::size_t after = text.find_first_not_of(" \t", key_end);
    if (after != std::string::npos && text[after] == '(') {
      std::size_t close = text.find(')', after);
      if (close != std::string::npos && text.find('\n', after) > close) key_end = close + 1;
    }
    value_start = key_end;
    pos = key_end;
    if (!key) continue;
    std::string value = TrimField(segment);
    if (first) {
      // The device line may precede the first value on the same (flattened)
      // line or on its own line: "/dev/ada0 512 # sectorsize".
      std::string dev_text = text.substr(0, from) + " " + value;
      std::string head = TrimField(dev_text);
      auto sp = head.find_last_of(" \t\n");
      if (sp != std::string::npos) {
        std::string before = TrimField(head.substr(0, sp));
        auto nl = before.find_last_of(" \t\n");
        info.device = nl == std::string::npos ? before : before.substr(nl + 1);
        value = head.substr(sp + 1);
      }
      first = false;
    }
    const std::string& k = *key;
    bool numeric = k != "Disk descr." && k != "Disk ident." && k != "Physical path" &&
                   k != "Attachment";
    if (numeric) value = LastWord(value);
    if (k == "sectorsize") {
      if (auto n = Number(value)) info.sector_size = static_cast<std::uint32_t>(*n);
    } else if (k == "mediasize in bytes") {
      info.media_size = Number(value);
    } else if (k == "mediasize in sectors") {
      info.media_sectors = Number(value);
    } else if (k == "stripesize") {
      if (auto n = Number(value)) info.stripe_size = static_cast<std::uint32_t>(*n);
    } else if (k == "Disk descr.") {
      info.descr = value;
    } else if (k == "Disk ident.") {
      if (value != "(null)" && value != "(REMOVED)") info.ident = value;
    } else if (k == "Physical path") {
      info.physical_path = value;
    } else if (k == "TRIM/UNMAP support") {
      if (value == "Yes") info.trim = true;
      else if (value == "No") info.trim = false;
    } else if (k == "Rotation rate in RPM") {
      if (auto n = Number(value); n && (*n == 0 || (*n > 0x400 && *n < 0xffff))) {
        info.rotation_rpm = static_cast<int>(*n);
      }
    } else if (k == "Zone Mode") {
      info.zone_mode = value;
    }
  }
  if (!info.sector_size || !info.media_size) {
    return Corrupt("diskinfo output not understood: no '# sectorsize' and '# mediasize in bytes' lines");
  }
  if (!info.device.empty() && info.device.find_first_of("/abcdefghijklmnopqrstuvwxyz") != 0) {
    info.device.clear();
  }
  return info;
}

}  // namespace dp
