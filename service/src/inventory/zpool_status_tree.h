// What the two `zpool status` parsers share (zpool_status_text.cc for the
// plain output, zpool_status_json.cc for `-j`): the error counters as zpool
// prints them, the tree of config rows each parser builds, the names of the
// vdev sections, and the one way that tree becomes Pool vdevs and members
// (zpool_status_parser.cc). Internal to the inventory module; the public
// interface is zpool_status_parser.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/pool.h"

namespace dp::zpool_status {

// An error counter as zpool prints it: "0", "342", or rounded by
// zfs_nicenum ("5.54M", 1024-based) unless -p was given.
struct Counter {
  std::uint64_t value = 0;
  bool approximate = false;
};

std::optional<Counter> ParseCounter(const std::string& tok);

// One config row (a pool, vdev, device or section header) with its children.
struct Node {
  std::string name, state, note;
  std::optional<Counter> read, write, cksum;
  std::optional<Counter> slow;  // `-s` SLOW column
  int indent = 0;
  bool section = false;  // logs / cache / spares / special / dedup header
  std::string role;      // for sections
  std::vector<std::unique_ptr<Node>> children;
};

// The vdev classes outside the data vdevs: how the text output heads their
// section, the JSON's key for them, and the role we give their vdevs, in the
// order zpool prints them.
struct Section {
  const char* text;
  const char* json;
  const char* role;
};
inline constexpr Section kSections[] = {{"logs", "logs", "log"},
                                        {"cache", "l2cache", "cache"},
                                        {"spares", "spares", "spare"},
                                        {"special", "special", "special"},
                                        {"dedup", "dedup", "dedup"}};

// A top-level vdev row and what is under it, with the given role.
Vdev ToVdev(const Node& n, const std::string& role);

// illumos prints "scrub: none requested" while a replacing vdev says
// "52% resilvered"; OpenZFS marks members "(resilvering)". Either way the
// pool is resilvering and must be left alone.
void DetectResilverFromRows(Pool& pool);

}  // namespace dp::zpool_status
