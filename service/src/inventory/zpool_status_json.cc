// `zpool status -j [--json-int] [-s]`, OpenZFS 2.3 and newer: pools as
// objects keyed by name, the vdev tree as nested "vdevs" objects, the scan
// as scan_stats with numbers (or strings of digits without --json-int).
// Separate from the text parser because nothing of the text's layout rules
// applies; what both share (counters, the tree's conversion to vdevs) is in
// zpool_status_parser.cc.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "inventory/zpool_status_parser.h"
#include "inventory/zpool_status_tree.h"

namespace dp {
namespace {

using zpool_status::Counter;
using zpool_status::Node;
using zpool_status::ParseCounter;
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
      for (const auto& c : root->children) pool.vdevs.push_back(zpool_status::ToVdev(*c, "data"));
    }
    for (const auto& s : zpool_status::kSections) {
      auto it = pj.find(s.json);
      if (it == pj.end() || !it->is_object()) continue;
      for (const auto& [k, vj] : it->items()) {
        if (vj.is_object()) pool.vdevs.push_back(zpool_status::ToVdev(*JsonNode(vj, 0), s.role));
      }
    }
    zpool_status::DetectResilverFromRows(pool);
    out.push_back(std::move(pool));
  }
  return out;
}

}  // namespace dp
