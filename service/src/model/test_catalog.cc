#include "model/test_catalog.h"

namespace dp {
namespace {

TestMetric Throughput(std::string title) { return {"mb_per_s", "MB/s", true, true, std::move(title)}; }

std::vector<TestInfo> MakeCatalog() {
  return {
      {"seq", TestKind::kRead, true, "drive", "sequential 1 MiB reads at queue depth 8",
       {Throughput("Sequential read")}},
      {"zones", TestKind::kRead, true, "drive",
       "sequential reads at the outer, middle and inner zones",
       {Throughput("Zones (outer / middle / inner)")}},
      {"seek", TestKind::kRead, true, "drive",
       "4 KiB reads across full, half, quarter and short strokes",
       {{"access_ms", "ms", false, false, "Seek profile (access time per stroke)"}}},
      {"random", TestKind::kRead, true, "drive", "random 4 KiB reads at queue depths 1 and 32",
       {{"iops", "IOPS", true, true, "Random read IOPS"},
        {"p99_us", "us", false, false, "Random read p99 latency"}}},
      {"sweep", TestKind::kRead, true, "drive", "sequential reads at block sizes 4 KiB to 1 MiB",
       {Throughput("Block size sweep")}},
      {"parallel", TestKind::kRead, false, "vdev",
       "every member of a vdev read alone, then all at once",
       {Throughput("Parallel read (alone and together)")}},
      {"pool-write", TestKind::kPoolWrite, false, "pool",
       "writes a scratch file in a pool dataset, removed afterwards",
       {Throughput("Pool write"), {"p99_us", "us", false, false, "Pool write p99 latency"}}},
      {"smart", TestKind::kSmart, false, "drive", "reads SMART data and identity", {}},
      {"smart-short", TestKind::kSelfTest, false, "drive",
       "starts the drive's short self-test", {}},
      {"smart-long", TestKind::kSelfTest, false, "drive",
       "starts the drive's extended self-test", {}},
  };
}

}  // namespace

const std::vector<TestInfo>& TestCatalog() {
  static const std::vector<TestInfo> kCatalog = MakeCatalog();
  return kCatalog;
}

const TestInfo* FindTest(std::string_view name) {
  for (const TestInfo& t : TestCatalog())
    if (t.name == name) return &t;
  return nullptr;
}

std::optional<TestKind> KindOfTest(std::string_view name) {
  const TestInfo* t = FindTest(name);
  if (!t) return std::nullopt;
  return t->kind;
}

bool IsJudgedTest(std::string_view name) {
  const TestInfo* t = FindTest(name);
  return t && t->judged;
}

std::string ListTests(bool (*pred)(const TestInfo&)) {
  std::vector<const std::string*> names;
  for (const TestInfo& t : TestCatalog())
    if (pred(t)) names.push_back(&t.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += ", ";
    out += *names[i];
  }
  return out;
}

std::string_view TestKindName(TestKind kind) {
  switch (kind) {
    case TestKind::kRead:
      return "read";
    case TestKind::kPoolWrite:
      return "pool-write";
    case TestKind::kSmart:
      return "smart";
    case TestKind::kSelfTest:
      return "self-test";
  }
  return "read";
}

}  // namespace dp
