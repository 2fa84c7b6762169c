#include "bench/bench_report_format.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace dp {
namespace {

using nlohmann::json;

json ZoneJson(const std::optional<std::string>& zone) {
  if (!zone) return nullptr;
  char* end = nullptr;
  double f = std::strtod(zone->c_str(), &end);
  if (end && *end == '\0' && end != zone->c_str()) return f;
  return *zone;
}

json LatencyJson(const std::optional<LatencySummary>& l) {
  if (!l) return nullptr;
  return {{"p50", l->p50_us},   {"p90", l->p90_us}, {"p99", l->p99_us},
          {"p999", l->p999_us}, {"max", l->max_us}, {"mean", l->mean_us}};
}

std::string Printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Printf(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

std::string HumanBytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (b >= 1024 && u < 5) {
    b /= 1024;
    ++u;
  }
  return u == 0 ? Printf("%.0f %s", b, units[u]) : Printf("%.1f %s", b, units[u]);
}

std::string BlockLabel(std::uint32_t bs) {
  if (bs >= (1u << 20) && bs % (1u << 20) == 0) return std::to_string(bs >> 20) + "M";
  if (bs >= 1024 && bs % 1024 == 0) return std::to_string(bs >> 10) + "K";
  return std::to_string(bs);
}

std::string Flags(const BenchPoint& p) {
  std::string f;
  if (p.partial) f += "  [partial]";
  if (p.contended) f += Printf("  [contended: %.0f%% foreign I/O]", p.foreign_share * 100);
  if (p.jobs > 1) f += Printf("  [%u jobs]", p.jobs);
  if (p.queue_depth_requested)
    f += Printf("  [queue depth %u clamped to the device's limit %u]", *p.queue_depth_requested,
                p.queue_depth);
  if (p.unwritten) f += "  [unwritten: " + p.unwritten_reason + "]";
  if (p.region_offset)
    f += "  [from " + HumanBytes(static_cast<double>(p.region_offset)) +
         ": the device's front held no data]";
  return f;
}

std::string LatencyText(const BenchPoint& p) {
  if (!p.latency) return "";
  const LatencySummary& l = *p.latency;
  return Printf("  lat us p50 %.0f p99 %.0f p99.9 %.0f max %.0f", l.p50_us, l.p99_us, l.p999_us,
                l.max_us);
}

const char* StrokeLabel(const std::string& s) {
  if (s == "full") return "Full stroke";
  if (s == "half") return "Half stroke";
  if (s == "quarter") return "Quarter stroke";
  if (s == "short_forward") return "Short forward";
  if (s == "short_backward") return "Short backward";
  return s.c_str();
}

const char* ZoneLabel(const std::string& z) {
  if (z == "outer") return "outside";
  if (z == "middle") return "middle";
  if (z == "inner") return "inside";
  return z.c_str();
}

}  // namespace

json BenchReportToJson(const BenchReport& r) {
  json results = json::array();
  for (const BenchPoint& p : r.results) {
    json e = {{"test", p.test},
              {"block_size", p.block_size},
              {"queue_depth", p.queue_depth},
              {"zone", ZoneJson(p.zone)},
              {"bytes", p.bytes},
              {"seconds", p.seconds},
              {"mb_per_s", p.mb_per_s},
              {"iops", p.iops},
              {"latency_us", LatencyJson(p.latency)},
              {"contended", p.contended},
              {"foreign_share", p.foreign_share},
              {"partial", p.partial},
              {"unwritten", p.unwritten},
              {"jobs", p.jobs}};
    if (p.unwritten) e["unwritten_reason"] = p.unwritten_reason;
    if (p.region_offset) e["region_offset"] = p.region_offset;
    if (p.queue_depth_requested) e["queue_depth_requested"] = *p.queue_depth_requested;
    if (p.stroke) e["stroke"] = *p.stroke;
    if (p.access_ms) e["access_ms"] = *p.access_ms;
    if (p.variant) e["variant"] = *p.variant;
    if (p.device_bytes || p.own_bytes)
      e["guard"] = {{"own_bytes", p.own_bytes},
                    {"own_requests", p.own_requests},
                    {"device_bytes", p.device_bytes},
                    {"device_requests", p.device_requests}};
    results.push_back(std::move(e));
  }
  json device = {{"size_bytes", r.device.size_bytes},
                 {"logical_block_size", r.device.logical_block_size},
                 {"physical_block_size", r.device.physical_block_size},
                 {"rotational", r.device.rotational ? json(*r.device.rotational) : json(nullptr)},
                 {"max_queue_depth",
                  r.device.max_queue_depth ? json(*r.device.max_queue_depth) : json(nullptr)}};
  json out = {{"target", r.target}, {"device", device}, {"engine", r.engine}, {"results", results}};
  out["partial"] = r.partial;
  if (!r.error.empty()) out["error"] = r.error;
  if (r.foreign_iops_before) out["foreign_iops_before"] = *r.foreign_iops_before;
  if (r.busy_before) {
    out["busy_share_before"] = *r.busy_before;
    out["contended_before"] = r.contended_before;
  }
  return out;
}

std::string FormatBenchReport(const BenchReport& r) {
  std::string o = r.target + "\n";
  const DeviceInfo& d = r.device;
  o += Printf("\t%-14llu\t# mediasize in bytes (%s)\n",
              static_cast<unsigned long long>(d.size_bytes), HumanBytes(d.size_bytes).c_str());
  o += Printf("\t%-14u\t# sectorsize\n", d.logical_block_size);
  o += Printf("\t%-14u\t# physical sector size\n", d.physical_block_size);
  o += Printf("\t%-14s\t# rotational\n", !d.rotational ? "unknown" : *d.rotational ? "yes" : "no");
  o += Printf("\t%-14s\t# engine\n", r.engine.c_str());
  if (r.foreign_iops_before)
    o += Printf("\t%-14.1f\t# foreign I/O per second before the run\n", *r.foreign_iops_before);
  if (r.contended_before)
    o += Printf("\t%-14s\t# device busy %.0f%% with foreign I/O just before the run: "
                "figures are not evidence\n",
                "CONTENDED", r.busy_before.value_or(0) * 100);

  std::string last_test;
  for (const BenchPoint& p : r.results) {
    if (p.test != last_test) {
      last_test = p.test;
      o += "\n";
      if (p.test == "seq")
        o += "Sequential read:\n";
      else if (p.test == "zones")
        o += "Transfer rates:\n";
      else if (p.test == "seek")
        o += "Seek times:\n";
      else if (p.test == "random")
        o += "Random read:\n";
      else if (p.test == "sweep")
        o += "Block-size sweep (sequential read):\n";
      else if (p.test == "parallel")
        o += "Parallel read (controller/bus ceiling):\n";
      else if (p.test == "pool-write")
        o += "Pool write (scratch file):\n";
      else
        o += p.test + ":\n";
    }
    if (p.test == "seek") {
      o += Printf("\t%-15s %6llu iter in %9.6f sec = %8.3f msec",
                  (StrokeLabel(p.stroke.value_or("")) + std::string(":")).c_str(),
                  static_cast<unsigned long long>(p.iops * p.seconds + 0.5), p.seconds,
                  p.access_ms.value_or(0));
    } else if (p.test == "zones") {
      o += Printf("\t%-8s %10.0f kbytes in %9.6f sec = %8.1f MB/s",
                  (ZoneLabel(p.zone.value_or("")) + std::string(":")).c_str(), p.bytes / 1024.0,
                  p.seconds, p.mb_per_s);
    } else if (p.test == "random") {
      o += Printf("\tRND%-4s Q%-3u %10.1f IOPS %9.3f MB/s", BlockLabel(p.block_size).c_str(),
                  p.queue_depth, p.iops, p.mb_per_s);
      o += LatencyText(p);
    } else if (p.test == "sweep") {
      o += Printf("\tbs=%-5s Q%-3u %9.3f MB/s %10.1f IOPS", BlockLabel(p.block_size).c_str(),
                  p.queue_depth, p.mb_per_s, p.iops);
    } else if (p.test == "pool-write" && p.variant == "fsync") {
      o += Printf("\twrite+fsync %-5s %8.1f per sec", BlockLabel(p.block_size).c_str(), p.iops);
      o += LatencyText(p);
    } else {
      std::string label = "SEQ" + BlockLabel(p.block_size) + " Q" + std::to_string(p.queue_depth);
      if (p.variant) label += " " + *p.variant;
      o += Printf("\t%-20s %9.3f MB/s %10.1f IOPS", label.c_str(), p.mb_per_s, p.iops);
      o += LatencyText(p);
    }
    o += Flags(p) + "\n";
  }
  if (r.partial)
    o += "\nPARTIAL: " + (r.error.empty() ? std::string("ended early") : r.error) + "\n";
  return o;
}

}  // namespace dp
