#include <gtest/gtest.h>

#include "store/compressed_text.h"
#include "store/migrations.h"
#include "store/sqlite_db.h"
#include "store/store_test_util.h"

namespace dp {
namespace {

class SmartStoreTest : public testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-a", "sda"), 1).ok());
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("nvme-x", "nvme0n1"), 1).ok());
  }
};

SmartSnapshot Ata(std::uint64_t reallocated) {
  SmartSnapshot s;
  s.protocol = "ATA";
  s.device_path = "/dev/sda";
  s.device_type = "sat";
  s.short_test_minutes = 2;
  s.extended_test_minutes = 495;
  s.self_test_running = true;
  s.self_test_remaining_percent = 90;
  s.parse_warnings = {"attribute 190: temperature 300 C is not believable"};
  s.model = "WDC WD40EFRX-68N32N0";
  s.serial = "WD-WCC7K0ABCDEF";
  s.wwn = "50014ee2b9e0a1b2";
  s.firmware = "82.00A82";
  s.capacity_bytes = 4000787030016ULL;
  s.rotation_rpm = 5400;
  s.health_passed = true;
  s.temperature_c = 34;
  s.power_on_hours = 41234;
  s.power_cycles = 77;
  s.reallocated_sectors = reallocated;
  s.pending_sectors = 0;
  s.offline_uncorrectable = 0;
  s.reported_uncorrectable = 1;
  s.command_timeouts = 2;
  s.udma_crc_errors = 3;
  SmartAttribute a;
  a.id = 5;
  a.name = "Reallocated_Sector_Ct";
  a.value = 200;
  a.worst = 200;
  a.thresh = 140;
  a.raw = reallocated;
  a.raw_string = std::to_string(reallocated);
  a.prefailure = true;
  SmartAttribute b;
  b.id = 194;
  b.name = "Temperature_Celsius";
  b.value = 116;
  b.raw_string = "34 (Min/Max 20/45)";
  b.when_failed = "past";
  s.attributes = {a, b};
  SmartSelfTest t;
  t.type = "short";
  t.status = "Completed without error";
  t.passed = true;
  t.lifetime_hours = 41200;
  SmartSelfTest u;
  u.type = "extended";
  u.status = "Aborted by host";
  s.self_tests = {t, u};
  s.smartctl_exit_status = 64;
  s.messages = {"Warning: ATA error count 3"};
  s.raw_json = R"({"json_format_version":[1,0],"smartctl":{"exit_status":64}})";
  return s;
}

TEST_F(SmartStoreTest, AtaSnapshotRoundTrips) {
  SmartSnapshot in = Ata(8);
  auto id = store_->InsertSmartSnapshot("wwn-a", 1000, in);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_GT(*id, 0);
  auto got = store_->LatestSmart("wwn-a");
  ASSERT_TRUE(got.ok());
  ASSERT_TRUE(got->has_value());
  const SmartSnapshot& s = **got;
  EXPECT_EQ(s.protocol, "ATA");
  EXPECT_EQ(s.model, in.model);
  EXPECT_EQ(s.serial, in.serial);
  EXPECT_EQ(s.wwn, in.wwn);
  EXPECT_EQ(s.firmware, in.firmware);
  EXPECT_EQ(s.capacity_bytes, in.capacity_bytes);
  EXPECT_EQ(s.rotation_rpm, std::optional<int>(5400));
  EXPECT_EQ(s.health_passed, std::optional<bool>(true));
  EXPECT_EQ(s.temperature_c, std::optional<int>(34));
  EXPECT_EQ(s.power_on_hours, in.power_on_hours);
  EXPECT_EQ(s.power_cycles, in.power_cycles);
  EXPECT_EQ(s.reallocated_sectors, std::optional<std::uint64_t>(8));
  EXPECT_EQ(s.pending_sectors, std::optional<std::uint64_t>(0));
  EXPECT_EQ(s.offline_uncorrectable, std::optional<std::uint64_t>(0));
  EXPECT_EQ(s.reported_uncorrectable, std::optional<std::uint64_t>(1));
  EXPECT_EQ(s.command_timeouts, std::optional<std::uint64_t>(2));
  EXPECT_EQ(s.udma_crc_errors, std::optional<std::uint64_t>(3));
  EXPECT_FALSE(s.nvme.has_value());
  ASSERT_EQ(s.attributes.size(), 2u);
  EXPECT_EQ(s.attributes[0].id, 5);
  EXPECT_EQ(s.attributes[0].name, "Reallocated_Sector_Ct");
  EXPECT_EQ(s.attributes[0].value, std::optional<int>(200));
  EXPECT_EQ(s.attributes[0].worst, std::optional<int>(200));
  EXPECT_EQ(s.attributes[0].thresh, std::optional<int>(140));
  EXPECT_EQ(s.attributes[0].raw, std::optional<std::uint64_t>(8));
  EXPECT_TRUE(s.attributes[0].prefailure);
  EXPECT_FALSE(s.attributes[1].worst.has_value());
  EXPECT_FALSE(s.attributes[1].raw.has_value());
  EXPECT_EQ(s.attributes[1].raw_string, "34 (Min/Max 20/45)");
  EXPECT_EQ(s.attributes[1].when_failed, "past");
  ASSERT_EQ(s.self_tests.size(), 2u);
  EXPECT_EQ(s.self_tests[0].type, "short");
  EXPECT_EQ(s.self_tests[0].passed, std::optional<bool>(true));
  EXPECT_EQ(s.self_tests[0].lifetime_hours, std::optional<std::uint64_t>(41200));
  EXPECT_EQ(s.self_tests[1].status, "Aborted by host");
  EXPECT_FALSE(s.self_tests[1].passed.has_value());
  EXPECT_EQ(s.smartctl_exit_status, std::optional<int>(64));
  EXPECT_EQ(s.messages, in.messages);
  EXPECT_EQ(s.raw_json, in.raw_json);
  EXPECT_EQ(s.device_path, "/dev/sda");
  EXPECT_EQ(s.device_type, "sat");
  EXPECT_EQ(s.short_test_minutes, std::optional<int>(2));
  EXPECT_EQ(s.extended_test_minutes, std::optional<int>(495));
  EXPECT_TRUE(s.self_test_running);
  EXPECT_EQ(s.self_test_remaining_percent, std::optional<int>(90));
  EXPECT_EQ(s.parse_warnings, in.parse_warnings);
}

TEST_F(SmartStoreTest, NvmeSnapshotAndAbsentFieldsRoundTrip) {
  SmartSnapshot in;
  in.protocol = "NVMe";
  in.model = "Samsung SSD 980 PRO 1TB";
  NvmeHealth n;
  n.critical_warning = 0;
  n.media_errors = 5;
  n.percentage_used = 3;
  n.available_spare = 100;
  n.available_spare_threshold = 10;
  n.unsafe_shutdowns = 12;
  in.nvme = n;
  ASSERT_TRUE(store_->InsertSmartSnapshot("nvme-x", 50, in).ok());
  auto got = store_->LatestSmart("nvme-x");
  ASSERT_TRUE(got.ok() && got->has_value());
  const SmartSnapshot& s = **got;
  ASSERT_TRUE(s.nvme.has_value());
  EXPECT_EQ(s.nvme->critical_warning, std::optional<std::uint64_t>(0));
  EXPECT_EQ(s.nvme->media_errors, std::optional<std::uint64_t>(5));
  EXPECT_EQ(s.nvme->percentage_used, std::optional<int>(3));
  EXPECT_EQ(s.nvme->available_spare, std::optional<int>(100));
  EXPECT_EQ(s.nvme->available_spare_threshold, std::optional<int>(10));
  EXPECT_EQ(s.nvme->unsafe_shutdowns, std::optional<std::uint64_t>(12));
  EXPECT_FALSE(s.nvme->num_err_log_entries.has_value());
  // Not reported is not zero.
  EXPECT_FALSE(s.wwn.has_value());
  EXPECT_FALSE(s.health_passed.has_value());
  EXPECT_FALSE(s.temperature_c.has_value());
  EXPECT_FALSE(s.reallocated_sectors.has_value());
  EXPECT_FALSE(s.smartctl_exit_status.has_value());
  EXPECT_TRUE(s.attributes.empty());
  EXPECT_TRUE(s.raw_json.empty());
  EXPECT_FALSE(s.short_test_minutes.has_value());
  EXPECT_FALSE(s.self_test_running);
  EXPECT_FALSE(s.self_test_remaining_percent.has_value());
}

TEST_F(SmartStoreTest, LatestAndHistory) {
  EXPECT_FALSE(store_->LatestSmart("wwn-a")->has_value());
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 100 * (i + 1), Ata(i)).ok());
  ASSERT_TRUE(store_->InsertSmartSnapshot("nvme-x", 900, SmartSnapshot()).ok());

  auto latest = store_->LatestSmart("wwn-a");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->reallocated_sectors, std::optional<std::uint64_t>(4));

  auto hist = store_->SmartHistory("wwn-a", 200, 0);
  ASSERT_TRUE(hist.ok());
  ASSERT_EQ(hist->size(), 4u);  // 200, 300, 400, 500; newest first
  EXPECT_EQ((*hist)[0].first, 500);
  EXPECT_EQ((*hist)[3].first, 200);
  EXPECT_EQ((*hist)[3].second.reallocated_sectors, std::optional<std::uint64_t>(1));
  EXPECT_TRUE((*hist)[0].second.raw_json.empty());

  auto limited = store_->SmartHistory("wwn-a", 0, 2);
  ASSERT_TRUE(limited.ok());
  ASSERT_EQ(limited->size(), 2u);
  EXPECT_EQ((*limited)[0].first, 500);
  EXPECT_EQ((*limited)[1].first, 400);
}

TEST_F(SmartStoreTest, UnknownDriveIsAClearError) {
  auto id = store_->InsertSmartSnapshot("wwn-ghost", 1, Ata(0));
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(id.status().message().find("unknown drive 'wwn-ghost'"), std::string::npos);
}

// Store::SmartHistorySpread, what the drive page's SMART charts read: the
// charted figures and each attribute's id, name, value and raw, from
// attribute_values where a row has it and from the whole attribute list in
// rows written before it (a version-6 file migrated) or where it does not
// parse, with the same answer either way.
SmartSnapshot Charted(int i) {
  SmartSnapshot s = Ata(static_cast<std::uint64_t>(i));
  s.temperature_c = 30 + i;
  return s;
}

void ExpectCharted(const std::vector<std::pair<std::int64_t, SmartSnapshot>>& h) {
  ASSERT_EQ(h.size(), 3u);
  for (std::size_t i = 0; i < h.size(); ++i) {
    const SmartSnapshot& s = h[i].second;
    EXPECT_EQ(h[i].first, 100 + static_cast<std::int64_t>(i) * 10);
    EXPECT_EQ(s.temperature_c, 30 + static_cast<int>(i));
    EXPECT_EQ(s.reallocated_sectors, i);
    EXPECT_EQ(s.health_passed, true);
    ASSERT_EQ(s.attributes.size(), 2u);
    EXPECT_EQ(s.attributes[0].id, 5);
    EXPECT_EQ(s.attributes[0].name, "Reallocated_Sector_Ct");
    EXPECT_EQ(s.attributes[0].value, 200);
    EXPECT_EQ(s.attributes[0].raw, i);
    EXPECT_EQ(s.attributes[1].id, 194);
    EXPECT_EQ(s.attributes[1].name, "Temperature_Celsius");
    EXPECT_EQ(s.attributes[1].value, 116);
    EXPECT_EQ(s.attributes[1].raw, std::nullopt);
  }
}

TEST_F(SmartStoreTest, SpreadReadsTheChartedFieldsAndAttributeValues) {
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 100 + i * 10, Charted(i)).ok());
  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Text("SELECT attribute_values FROM smart_snapshots ORDER BY at DESC LIMIT 1"),
            R"x(["raw_string",5,200,2,"2",194,116,null,"34 (Min/Max 20/45)"])x");
  // The values are read from attribute_values: the whole list of a row is
  // not needed once its attributes' names are known.
  raw.Exec("UPDATE smart_snapshots SET attributes = '[]' WHERE at > 100");
  auto h = store_->SmartHistorySpread("wwn-a", 0, 400);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  ExpectCharted(*h);
  // What the charts do not show is not read.
  EXPECT_TRUE((*h)[0].second.model.empty());
  EXPECT_TRUE((*h)[0].second.self_tests.empty());
}

// Twenty attributes: attribute_values is long enough to be stored
// compressed, and reads back the same.
TEST_F(SmartStoreTest, SpreadReadsCompressedAttributeValues) {
  for (int i = 0; i < 2; ++i) {
    SmartSnapshot s;
    for (int id = 1; id <= 20; ++id) {
      SmartAttribute a;
      a.id = id;
      a.name = "Attribute_" + std::to_string(id);
      a.value = 100 - id;
      a.raw = static_cast<std::uint64_t>(1000000007) * id + i;
      s.attributes.push_back(a);
    }
    ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 100 + i, s).ok());
  }
  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Rows("SELECT typeof(attribute_values) FROM smart_snapshots"), "blob\nblob");
  raw.Exec("UPDATE smart_snapshots SET attributes = '[]' WHERE at = 101");
  auto h = store_->SmartHistorySpread("wwn-a", 0, 400);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  ASSERT_EQ(h->size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& attrs = (*h)[i].second.attributes;
    ASSERT_EQ(attrs.size(), 20u) << i;
    for (int id = 1; id <= 20; ++id) {
      const SmartAttribute& a = attrs[static_cast<std::size_t>(id - 1)];
      EXPECT_EQ(a.id, id);
      EXPECT_EQ(a.name, "Attribute_" + std::to_string(id));
      EXPECT_EQ(a.value, 100 - id);
      EXPECT_EQ(a.raw, static_cast<std::uint64_t>(1000000007) * id + i);
    }
  }
}

// The charts read smartctl's raw string with each value (a packed raw
// value is drawn by the number it shows), and rows written with values only
// ([id, value, raw, ...]) still read, without it.
TEST_F(SmartStoreTest, SpreadReadsRawStringsAndRowsWrittenWithoutThem) {
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 100 + i * 10, Charted(i)).ok());
  testing::RawDb raw(db_path_);
  raw.Exec("UPDATE smart_snapshots SET attribute_values = '[5,200,0,194,116,null]' WHERE at = 100");
  raw.Exec("UPDATE smart_snapshots SET attributes = '[]' WHERE at > 100");
  auto h = store_->SmartHistorySpread("wwn-a", 0, 400);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  ExpectCharted(*h);
  EXPECT_EQ((*h)[0].second.attributes[1].raw_string, "");
  for (std::size_t i = 1; i < 3; ++i) {
    const SmartAttribute& temp = (*h)[i].second.attributes[1];
    EXPECT_EQ(temp.raw_string, "34 (Min/Max 20/45)");
    EXPECT_EQ(RawShownNumber(temp), 34u);
    EXPECT_EQ((*h)[i].second.attributes[0].raw_string, std::to_string(i));
  }
}

TEST_F(SmartStoreTest, SpreadRowsWithoutUsableValuesReadTheWholeList) {
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 100 + i * 10, Charted(i)).ok());
  testing::RawDb raw(db_path_);
  raw.Exec("UPDATE smart_snapshots SET attribute_values = NULL WHERE at = 100");
  raw.Exec("UPDATE smart_snapshots SET attribute_values = '[5, 200]' WHERE at = 110");
  auto h = store_->SmartHistorySpread("wwn-a", 0, 400);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  ExpectCharted(*h);
}

// A version-6 file with snapshots as that version wrote them (the attribute
// list as text in one row, compressed in another): opening it migrates to
// the latest version, the old rows read back through their whole lists, a
// new snapshot gets its attribute_values, and one spread holds all three;
// the retention pass then fills the old rows' values.
TEST(SmartMigrationTest, VersionSixSnapshotsChartTheSameAfterMigration) {
  testing::TempDir dir;
  const std::string path = dir.Path("diskpulse.db");
  const std::string list = R"([{"id":5,"name":"Reallocated_Sector_Ct","prefailure":true,)"
                           R"("raw":RAW,"raw_string":"RAW","thresh":140,"value":200,)"
                           R"("when_failed":"","worst":200},{"id":194,"name":"Temperature_Celsius",)"
                           R"j("prefailure":false,"raw_string":"34 (Min/Max 20/45)","value":116,)j"
                           R"("when_failed":"past"}])";
  auto with_raw = [&](const std::string& r) {
    std::string s = list;
    for (std::size_t p; (p = s.find("RAW")) != std::string::npos;) s.replace(p, 3, r);
    return s;
  };
  {
    auto db = SqliteDb::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    const auto& all = SchemaMigrations();
    ASSERT_GE(all.size(), 7u);
    ASSERT_EQ(all[5].version, 6);
    ASSERT_TRUE(ApplyMigrations(**db, {all[0], all[1], all[2], all[3], all[4], all[5]}).ok());
    ASSERT_EQ(*(*db)->QueryInt("PRAGMA user_version"), 6);
    ASSERT_TRUE((*db)
                    ->Exec("INSERT INTO drives (id, name, first_seen, last_seen) "
                           "VALUES ('wwn-a', 'sda', 1, 1);"
                           "INSERT INTO smart_snapshots (drive_id, at, protocol, health_passed, "
                           "temperature_c, reallocated_sectors, attributes) VALUES ('wwn-a', 100, "
                           "'ATA', 1, 30, 0, '" + with_raw("0") + "')")
                    .ok());
    auto st = (*db)->Prepare(
        "INSERT INTO smart_snapshots (drive_id, at, protocol, health_passed, temperature_c, "
        "reallocated_sectors, attributes) VALUES ('wwn-a', 110, 'ATA', 1, 31, 1, ?1)");
    ASSERT_TRUE(st.ok());
    const std::string z = Deflate(with_raw("1"));
    ASSERT_FALSE(z.empty());
    st->BindBlob(1, z);
    ASSERT_TRUE(st->Run().ok());
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
  ASSERT_TRUE((*store)->InsertSmartSnapshot("wwn-a", 120, Charted(2)).ok());
  {
    testing::RawDb raw(path);
    EXPECT_EQ(raw.Rows("SELECT at, attribute_values IS NULL FROM smart_snapshots ORDER BY at"),
              "100|1\n110|1\n120|0");
  }
  auto h = (*store)->SmartHistorySpread("wwn-a", 0, 400);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  ExpectCharted(*h);

  // The retention pass gives the old rows their values (nothing is old
  // enough to go), and the spread reads the same from them.
  ASSERT_TRUE((*store)->ApplyRetention(RetentionConfig{}, 200).ok());
  {
    testing::RawDb raw(path);
    EXPECT_EQ(raw.Rows("SELECT at, attribute_values FROM smart_snapshots ORDER BY at"),
              R"x(100|["raw_string",5,200,0,"0",194,116,null,"34 (Min/Max 20/45)"])x" "\n"
              R"x(110|["raw_string",5,200,1,"1",194,116,null,"34 (Min/Max 20/45)"])x" "\n"
              R"x(120|["raw_string",5,200,2,"2",194,116,null,"34 (Min/Max 20/45)"])x");
  }
  h = (*store)->SmartHistorySpread("wwn-a", 0, 400);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  ExpectCharted(*h);
}

}  // namespace
}  // namespace dp
