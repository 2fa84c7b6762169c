#include "inventory/geom_parser.h"

#include <sstream>

#include "inventory/drive_identity.h"

namespace dp {
namespace {

std::optional<std::uint64_t> LeadingU64(const std::string& v) {
  std::size_t i = 0;
  std::uint64_t x = 0;
  while (i < v.size() && v[i] >= '0' && v[i] <= '9') {
    if (x > (UINT64_MAX - 9) / 10) return std::nullopt;
    x = x * 10 + static_cast<std::uint64_t>(v[i] - '0');
    ++i;
  }
  if (i == 0) return std::nullopt;
  return x;
}

}  // namespace

Result<std::vector<GeomDisk>> ParseGeomDiskList(std::string_view text) {
  std::vector<GeomDisk> out;
  std::istringstream in{std::string(text)};
  bool in_provider = false;
  for (std::string line; std::getline(in, line);) {
    std::string t = TrimField(line);
    auto colon = t.find(':');
    if (colon == std::string::npos) continue;
    std::string key = t.substr(0, colon);
    std::string value = TrimField(t.substr(colon + 1));
    if (key == "Geom name") {
      out.emplace_back();
      out.back().name = value;
      in_provider = false;
      continue;
    }
    if (out.empty()) continue;
    GeomDisk& d = out.back();
    if (key == "Providers") {
      in_provider = true;
      continue;
    }
    if (key == "Consumers") in_provider = false;
    if (!in_provider) continue;
    if (key == "1. Name") {
      d.name = value;
    } else if (key == "Mediasize") {
      d.media_size = LeadingU64(value).value_or(0);
    } else if (key == "Sectorsize") {
      d.sector_size = static_cast<std::uint32_t>(LeadingU64(value).value_or(0));
    } else if (key == "Stripesize") {
      d.stripe_size = static_cast<std::uint32_t>(LeadingU64(value).value_or(0));
    } else if (key == "descr") {
      d.descr = value;
    } else if (key == "ident") {
      if (value != "(null)") d.ident = value;
    } else if (key == "lunid") {
      d.lunid = value;
    } else if (key == "rotationrate") {
      // geom prints "unknown", "0" for non-rotating media, or the RPM.
      if (auto rpm = LeadingU64(value); rpm && (*rpm == 0 || (*rpm > 0x400 && *rpm < 0xffff))) {
        d.rotation_rpm = static_cast<int>(*rpm);
      }
    }
  }
  if (out.empty() && text.find_first_not_of(" \t\r\n") != std::string_view::npos) {
    return Corrupt("geom disk list output not understood: no 'Geom name:' line");
  }
  return out;
}

std::vector<GlabelEntry> ParseGlabelStatus(std::string_view text) {
  std::vector<GlabelEntry> out;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    std::istringstream ws(line);
    GlabelEntry e;
    if (!(ws >> e.label >> e.status >> e.component)) continue;
    if (e.label == "Name" && e.status == "Status") continue;  // header
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace dp
