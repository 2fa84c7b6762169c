// Hardware events in minutes, on the real daemon: discovery every hour, a
// presence look every few seconds (inventory.presence_interval_seconds).
//  a. A loop device the daemon watches is detached (losetup -d): the missing
//     alert is open in the REST API and posted to a webhook within two looks,
//     the grace (detection.missing_grace_minutes) and a discovery pass, and
//     not before the grace.
//  b. A pool (a replayed `zpool status`) goes from ONLINE to DEGRADED between
//     two looks: its state alert is open and posted within two looks.
//  c. A known drive put in inventory.exclude is never alerted as missing.
// The daemon is the real binary on loopback; the loop device is detached and
// its file removed in teardown, also when an assertion fails.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "e2e/webhook_receiver_util.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/eventually.h"
#include "support/http_client.h"
#include "support/loop_daemon.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"
#include "support/zpool_recording.h"

namespace dp::testing {
namespace {

using Steady = std::chrono::steady_clock;
using nlohmann::json;

constexpr int kLookSeconds = 2;
// Time for one discovery pass and the webhook's delivery on a busy machine.
constexpr int kSlackSeconds = 15;

double Since(Steady::time_point from) {
  return std::chrono::duration<double>(Steady::now() - from).count();
}

// The open alert of `condition` (for `drive_id`, unless empty), as the API
// lists it; a discarded value while there is none.
json OpenAlert(const DaemonProcess& d, const std::string& condition,
               const std::string& drive_id = "") {
  auto r = HttpGet(d.port(), "/api/v1/alerts?state=open");
  if (r.status != 200) return json();
  const json body = r.Json();
  if (!body.is_array()) return json();
  for (const json& a : body) {
    if (!a.is_object() || a["condition"] != condition) continue;
    if (drive_id.empty() || a["drive_id"] == drive_id) return a;
  }
  return json();
}

bool Posted(const WebhookReceiver& hook, const std::string& condition) {
  for (const std::string& b : hook.bodies())
    if (b.find("\"opened\"") != std::string::npos &&
        b.find("\"" + condition + "\"") != std::string::npos)
      return true;
  return false;
}

class PresenceE2eTest : public ::testing::Test {
 protected:
  json Base(int grace_minutes) const {
    return {
        {"log_level", "info"},
        {"inventory",
         {{"presence_interval_seconds", kLookSeconds},
          {"interval_seconds", 3600},
          {"zfs_sample_minutes", 0}}},
        {"alerts",
         {{"webhooks", json::array({{{"name", "hook"},
                                     {"url", hook_.url()},
                                     {"max_attempts", 1},
                                     {"timeout_seconds", 3}}})},
          {"detection", {{"missing_grace_minutes", grace_minutes}}}}},
    };
  }

  // The loop device as the only drive the daemon sees besides this machine's
  // own (the tools do not exist, so nothing is asked of those).
  json LoopPatch(int grace_minutes, json exclude = json::array()) const {
    json p = Base(grace_minutes);
    p["inventory"]["include"] = json::array({loop_->name()});
    p["inventory"]["exclude"] = std::move(exclude);
    p["inventory"]["sysfs_root"] = "/sys";
    p["inventory"]["dev_root"] = "/dev";
    p["inventory"]["udev_data_dir"] = "/run/udev/data";
    return p;
  }

  Status StartDaemon(const json& patch) {
    daemon_.reset();
    auto d = DaemonProcess::Start(dir_, patch);
    if (!d.ok()) return d.status();
    daemon_ = std::move(d).value();
    if (!store_) {
      auto store = Store::Open(dir_.Path("var/diskpulse.db"));
      if (!store.ok()) return store.status();
      store_ = std::move(store).value();
    }
    return Status::Ok();
  }

  Status AttachLoop() {
    std::string why = LoopDevice::Unavailable();
    if (!why.empty()) return Unavailable(why);
    // A number no test beside this one is given, so the pulled drive's name
    // cannot come back as another test's loop device while its grace runs.
    auto loop = LoopDevice::CreateApart(64ULL << 20);
    if (!loop.ok()) return loop.status();
    loop_ = std::move(loop).value();
    return Status::Ok();
  }

  std::string Dump() const {
    if (!daemon_) return "";
    std::string out = "\n--- alerts ---\n" + HttpGet(daemon_->port(), "/api/v1/alerts").body;
    for (const std::string& b : hook_.bodies()) out += "\n--- posted ---\n" + b;
    return out + "\n--- daemon ---\n" + daemon_->Output();
  }

  TempDir dir_;
  WebhookReceiver hook_{200};
  std::unique_ptr<LoopDevice> loop_;  // detached in its destructor
  std::unique_ptr<DaemonProcess> daemon_;
  std::unique_ptr<Store> store_;
};

TEST_F(PresenceE2eTest, PulledDriveIsAlertedWithinTwoLooksAndTheGrace) {
  if (Status s = AttachLoop(); !s.ok())
    DP_SKIP_WITHOUT("loop devices", "loop devices unavailable: " << s.message());
  constexpr int kGraceMinutes = 1;  // the default
  ASSERT_TRUE(StartDaemon(LoopPatch(kGraceMinutes)).ok()) << Dump();
  auto id = WaitForDrive(*store_, loop_->name());
  ASSERT_TRUE(id.ok()) << id.status().ToString() << Dump();
  // The first look has seen the loop device (it was attached before start).
  std::this_thread::sleep_for(std::chrono::seconds(kLookSeconds + 1));

  const auto pulled = Steady::now();
  ASSERT_TRUE(loop_->Detach().ok());
  const double bound = 2 * kLookSeconds + kGraceMinutes * 60 + kSlackSeconds;
  std::optional<double> opened, posted;
  ASSERT_TRUE(Eventually(
      [&] {
        if (!opened && !OpenAlert(*daemon_, "missing", *id).is_null()) opened = Since(pulled);
        if (!posted && Posted(hook_, "missing")) posted = Since(pulled);
        return opened && posted;
      },
      std::chrono::seconds(static_cast<int>(bound) + 30), std::chrono::milliseconds(200)))
      << "no missing alert " << bound + 30 << " s after the drive was pulled" << Dump();
  std::printf("[ measured ] detach -> missing alert open %.1f s, posted %.1f s (bound %.0f s)\n",
              *opened, *posted, bound);
  EXPECT_LE(*opened, bound) << Dump();
  EXPECT_LE(*posted, bound) << Dump();
  // Gone for less than the grace is no alert: a bus reset must not raise one.
  // The grace runs from the discovery pass that first found the drive gone,
  // which may have started up to a look before the detach reached it.
  EXPECT_GE(*opened, kGraceMinutes * 60 - kLookSeconds - 1) << Dump();
  const json alert = OpenAlert(*daemon_, "missing", *id);
  EXPECT_EQ(alert["severity"], "critical") << alert.dump();
}

TEST_F(PresenceE2eTest, DegradedPoolIsAlertedWithinTwoLooks) {
  // A recording whose `zpool status` answers ONLINE to discovery's first pass
  // and the first look, then DEGRADED (the replay repeats its last answer).
  const std::string rec = dir_.Path("recording");
  // The same pool of two mirrors of loop devices, before and after one of
  // its members became unusable.
  const std::string online = ReadFile(FixturePath("zpool/linux-mirror2x-resilvered.txt"));
  const std::string degraded =
      ReadFile(FixturePath("zpool/linux-mirror2x-degraded-unavail-corrupted-data.txt"));
  const std::string condition = "pool:dummy:state";
  ASSERT_TRUE(WriteZpoolRecording(rec, {online, online, degraded}).ok());
  json patch = Base(1);
  patch["replay_dir"] = rec;
  patch["tools"] = {{"zpool", "zpool"}, {"smartctl", "smartctl"}};
  const auto started = Steady::now();
  ASSERT_TRUE(StartDaemon(patch).ok()) << Dump();

  // The third answer is DEGRADED: the pool degrades at the second look at
  // the latest (kLookSeconds after the start), so two looks bound it.
  const double bound = 2 * kLookSeconds + kSlackSeconds;
  std::optional<double> opened, posted;
  ASSERT_TRUE(Eventually(
      [&] {
        if (!opened && !OpenAlert(*daemon_, condition).is_null()) opened = Since(started);
        if (!posted && Posted(hook_, condition)) posted = Since(started);
        return opened && posted;
      },
      std::chrono::seconds(static_cast<int>(bound) + 30), std::chrono::milliseconds(200)))
      << "no pool state alert " << bound + 30 << " s after the start" << Dump();
  std::printf("[ measured ] start -> DEGRADED pool alert open %.1f s, posted %.1f s (bound %.0f s)\n",
              *opened, *posted, bound);
  EXPECT_LE(*opened, bound) << Dump();
  EXPECT_LE(*posted, bound) << Dump();
  EXPECT_NE(daemon_->Output().find("ONLINE -> DEGRADED"), std::string::npos) << Dump();
}

TEST_F(PresenceE2eTest, ExcludedDriveIsNeverMissing) {
  if (Status s = AttachLoop(); !s.ok())
    DP_SKIP_WITHOUT("loop devices", "loop devices unavailable: " << s.message());
  // Known to the database first, then excluded by its owner: no grace, so a
  // missing alert would open at the first pass that does not list it.
  ASSERT_TRUE(StartDaemon(LoopPatch(0)).ok()) << Dump();
  auto id = WaitForDrive(*store_, loop_->name());
  ASSERT_TRUE(id.ok()) << id.status().ToString() << Dump();
  daemon_->Signal(SIGTERM);
  ASSERT_TRUE(daemon_->WaitExit(std::chrono::seconds(15)).has_value()) << Dump();

  ASSERT_TRUE(StartDaemon(LoopPatch(0, json::array({loop_->path()}))).ok()) << Dump();
  ASSERT_TRUE(daemon_->WaitForOutput("discovery: ", std::chrono::seconds(15))) << Dump();
  // Discovery has run and left the drive out; several looks later still no
  // missing alert, and none was posted.
  std::this_thread::sleep_for(std::chrono::seconds(3 * kLookSeconds));
  EXPECT_TRUE(OpenAlert(*daemon_, "missing", *id).is_null()) << Dump();
  EXPECT_FALSE(Posted(hook_, "missing")) << Dump();
  auto drive = store_->GetDrive(*id);
  ASSERT_TRUE(drive.ok() && drive->has_value());
  EXPECT_FALSE((*drive)->present);  // excluded: not seen, and not alerted for it
}

}  // namespace
}  // namespace dp::testing
