// The database's file system fills up (a 2 MiB tmpfs, resized to give the
// space back): writes fail with a clear error, nothing committed is lost or
// damaged, and writing works again once space returns, without reopening
// the store. Needs root (mount); skips otherwise.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <random>

#include "store/store_test_util.h"
#include "support/capability.h"

namespace dp {
namespace {

using ::testing::HasSubstr;

// A tmpfs of `size` mounted on a fresh folder; unmounted on destruction.
class SmallVolume {
 public:
  explicit SmallVolume(const std::string& size) {
    path_ = dir_.Path("vol");
    std::filesystem::create_directory(path_);
    mounted_ = ::mount("tmpfs", path_.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
  }
  ~SmallVolume() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& path() const { return path_; }
  bool Remount(const std::string& options) {
    return ::mount("tmpfs", path_.c_str(), "tmpfs", MS_REMOUNT, options.c_str()) == 0;
  }

 private:
  testing::TempDir dir_;
  std::string path_;
  bool mounted_ = false;
};

// Output that does not compress, so the volume fills.
std::string Noise(std::mt19937_64& rng, std::size_t n) {
  std::string s(n, ' ');
  for (auto& c : s) c = static_cast<char>('!' + rng() % 90);
  return "{\"noise\":\"" + s + "\"}";
}

TEST(DiskFullTest, FullVolumeFailsWritesCleanlyAndRecovers) {
  if (::geteuid() != 0) DP_SKIP_WITHOUT("root", "needs root to mount a tmpfs");
  SmallVolume vol("2m");
  if (!vol.mounted()) DP_SKIP_WITHOUT("tmpfs mount", "cannot mount a tmpfs here");
  const std::string path = vol.path() + "/diskpulse.db";
  auto opened = Store::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  Store& store = **opened;
  ASSERT_TRUE(store.UpsertDrive(testing::MakeDrive("wwn-a", "sda"), 1).ok());

  std::mt19937_64 rng(7);
  int committed = 0;
  Status failure;
  for (int i = 0; i < 1000; ++i) {
    SmartSnapshot s;
    s.protocol = "ATA";
    s.power_on_hours = static_cast<std::uint64_t>(i);
    s.raw_json = Noise(rng, 20000);
    auto id = store.InsertSmartSnapshot("wwn-a", 100 + i, s);
    if (!id.ok()) {
      failure = id.status();
      break;
    }
    ++committed;
  }
  ASSERT_FALSE(failure.ok()) << "the 2 MiB volume never filled";
  ASSERT_GT(committed, 10);
  EXPECT_THAT(failure.ToString(), HasSubstr("full"));
  // Reads still work, so the store says itself that writing does not.
  EXPECT_TRUE(store.ListDrives().ok());
  EXPECT_THAT(store.WriteFailure().ToString(), HasSubstr("full"));

  // A run cannot store its figures now: a clear error, not a crash.
  auto run_id = store.InsertRun(testing::MakeRun("wwn-a", "seq", 5000));
  if (run_id.ok()) {
    BenchPoint p;
    p.test = "seq";
    p.mb_per_s = 100;
    p.histogram = Noise(rng, 200000);
    Status s = store.AddMeasurements(*run_id, {p});
    EXPECT_FALSE(s.ok());
    EXPECT_THAT(s.ToString(), HasSubstr("full"));
  } else {
    EXPECT_THAT(run_id.status().ToString(), HasSubstr("full"));
  }

  // Everything committed is intact and readable.
  auto check = store.QuickCheck();
  ASSERT_TRUE(check.ok()) << check.status().ToString();
  EXPECT_EQ(*check, "ok");
  auto hist = store.SmartHistory("wwn-a", 0, 0);
  ASSERT_TRUE(hist.ok()) << hist.status().ToString();
  EXPECT_EQ(static_cast<int>(hist->size()), committed);

  // Space comes back: the same store writes again.
  ASSERT_TRUE(vol.Remount("size=64m"));
  SmartSnapshot s;
  s.protocol = "ATA";
  s.raw_json = Noise(rng, 20000);
  auto id = store.InsertSmartSnapshot("wwn-a", 9000, s);
  EXPECT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_TRUE(store.WriteFailure().ok()) << store.WriteFailure().ToString();
  auto run = store.InsertRun(testing::MakeRun("wwn-a", "seq", 9001));
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  BenchPoint p;
  p.test = "seq";
  p.mb_per_s = 100;
  EXPECT_TRUE(store.AddMeasurements(*run, {p}).ok());
  EXPECT_EQ(*store.QuickCheck(), "ok");
  opened->reset();

  // And the file opens cleanly afterwards, with every row.
  auto again = Store::Open(path);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  hist = (*again)->SmartHistory("wwn-a", 0, 0);
  ASSERT_TRUE(hist.ok());
  EXPECT_EQ(static_cast<int>(hist->size()), committed + 1);
}

TEST(DiskFullTest, RetentionOnAFullVolumeFailsCleanlyAndFreesSpaceLater) {
  if (::geteuid() != 0) DP_SKIP_WITHOUT("root", "needs root to mount a tmpfs");
  SmallVolume vol("3m");
  if (!vol.mounted()) DP_SKIP_WITHOUT("tmpfs mount", "cannot mount a tmpfs here");
  const std::string path = vol.path() + "/diskpulse.db";
  auto opened = Store::Open(path);
  ASSERT_TRUE(opened.ok());
  Store& store = **opened;
  ASSERT_TRUE(store.UpsertDrive(testing::MakeDrive("wwn-a", "sda"), 1).ok());
  std::mt19937_64 rng(9);
  int committed = 0;
  for (int i = 0; i < 1000; ++i) {
    SmartSnapshot s;
    s.protocol = "ATA";
    s.power_on_hours = static_cast<std::uint64_t>(i);
    s.raw_json = Noise(rng, 20000);
    if (!store.InsertSmartSnapshot("wwn-a", i * 3600, s).ok()) break;
    ++committed;
  }
  ASSERT_GT(committed, 10);
  // Retention needs a little room for its own journal; whether this pass
  // gets it or not, it must leave the database whole.
  auto rep = store.ApplyRetention(RetentionConfig{}, 400 * 86400);
  if (!rep.ok()) {
    EXPECT_THAT(rep.status().ToString(), HasSubstr("full"));
  }
  EXPECT_EQ(*store.QuickCheck(), "ok");
  ASSERT_TRUE(vol.Remount("size=64m"));
  rep = store.ApplyRetention(RetentionConfig{}, 400 * 86400);
  ASSERT_TRUE(rep.ok()) << rep.status().ToString();
  EXPECT_LT(rep->bytes_after, rep->bytes_before);
  // Only the latest output is left (everything is older than 7 days).
  testing::RawDb raw(path);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM smart_snapshots WHERE raw_json IS NOT NULL"), 1);
  EXPECT_EQ(*store.QuickCheck(), "ok");
}

}  // namespace
}  // namespace dp
