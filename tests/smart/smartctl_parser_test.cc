// ParseSmartctlOutput against the real captures in tests/fixtures/smartctl.
// Expected values were read from the JSON files by hand (jq views of the
// files), never taken from this parser's output.
#include "smart/smartctl_parser.h"

#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/smart_snapshot_json.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;

SmartSnapshot Parse(const std::string& name) {
  std::string text = ReadFile(FixturePath("smartctl/" + name));
  EXPECT_FALSE(text.empty()) << name;
  auto r = ParseSmartctlOutput(text);
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().ToString();
  if (!r.ok()) return {};
  EXPECT_FALSE(r->asleep);
  return r->snapshot;
}

// A number too large for a double in smartctl's JSON is corrupt output, not
// a crash.
TEST(SmartctlParserBadInput, NumberOverflowIsCorrupt) {
  auto r = ParseSmartctlOutput("{\"temperature\": {\"current\": 1e400}}");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().ToString().find("not valid JSON"), std::string::npos) << r.status().ToString();
}

const SmartAttribute* Attr(const SmartSnapshot& s, int id) {
  for (const auto& a : s.attributes) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

TEST(SmartctlParserTest, EveryFixtureParsesOrGivesAClearError) {
  int parsed = 0, refused = 0;
  for (const auto& e : std::filesystem::directory_iterator(FixturePath("smartctl"))) {
    std::string name = e.path().filename().string();
    std::string text = ReadFile(e.path().string());
    auto r = ParseSmartctlOutput(text);
    bool expect_error = name.rfind("error-", 0) == 0 || name.rfind("scan-", 0) == 0;
    if (expect_error) {
      EXPECT_FALSE(r.ok()) << name;
      EXPECT_GT(r.status().message().size(), 20u) << name;
      ++refused;
    } else {
      ASSERT_TRUE(r.ok()) << name << ": " << r.status().ToString();
      // The contract serialises without throwing and reads back.
      auto j = SmartSnapshotToJson(r->snapshot);
      auto back = SmartSnapshotFromJson(j);
      ASSERT_TRUE(back.ok()) << name << ": " << back.status().ToString();
      EXPECT_EQ(SmartSnapshotToJson(*back), j) << name;
      ++parsed;
    }
    // Every truncation of the file is refused cleanly or parsed, never a crash.
    for (std::size_t cut : {text.size() / 3, text.size() / 2, text.size() - 2}) {
      auto t = ParseSmartctlOutput(std::string_view(text).substr(0, cut));
      if (!t.ok()) {
        EXPECT_FALSE(t.status().message().empty());
      }
    }
  }
  EXPECT_EQ(parsed + refused, 62);
  EXPECT_EQ(refused, 8);
}

// --- ATA ------------------------------------------------------------------

TEST(SmartctlParserTest, WdWhiteLabel14TbHealthyWithTestInProgress) {
  SmartSnapshot s = Parse("ata-hdd-WDC-WD140EDFZ-14tb-healthy.json");
  EXPECT_EQ(s.protocol, "ATA");
  EXPECT_EQ(s.device_type, "sat");
  EXPECT_EQ(s.model, "WDC WD140EDFZ-11A0VA0");
  EXPECT_EQ(s.serial, "9RK1XXXX");
  EXPECT_EQ(s.wwn, "5000cca264eb01d7");  // naa 5, oui 3274 (0xcca), id 10283057623
  EXPECT_EQ(s.firmware, "81.00A81");
  EXPECT_EQ(s.capacity_bytes, 14000519643136u);
  EXPECT_EQ(s.rotation_rpm, 5400);
  EXPECT_EQ(s.health_passed, true);
  EXPECT_EQ(s.temperature_c, 32);
  EXPECT_EQ(s.power_on_hours, 1730u);
  EXPECT_EQ(s.power_cycles, 9u);
  EXPECT_EQ(s.reallocated_sectors, 0u);
  EXPECT_EQ(s.pending_sectors, 0u);
  EXPECT_EQ(s.offline_uncorrectable, 0u);
  EXPECT_EQ(s.udma_crc_errors, 0u);
  EXPECT_EQ(s.reported_uncorrectable, std::nullopt);  // no attribute 187 on this drive
  EXPECT_EQ(s.command_timeouts, std::nullopt);        // nor 188
  EXPECT_EQ(s.nvme, std::nullopt);
  EXPECT_EQ(s.smartctl_exit_status, 0);
  // ata_smart_data.self_test.status: 241 "in progress, 10% remaining"
  EXPECT_TRUE(s.self_test_running);
  EXPECT_EQ(s.self_test_remaining_percent, 10);
  EXPECT_EQ(s.short_test_minutes, 2);
  EXPECT_EQ(s.extended_test_minutes, 1479);
  ASSERT_EQ(s.self_tests.size(), 21u);
  EXPECT_EQ(s.self_tests[0].type, "short");
  EXPECT_EQ(s.self_tests[0].passed, true);
  EXPECT_EQ(s.self_tests[0].lifetime_hours, 1708u);
}

TEST(SmartctlParserTest, UsbJmicronFailingHitachi) {
  SmartSnapshot s = Parse("usb-jmicron-hdd-hitachi-HDS721050DLE630-failing.json");
  EXPECT_EQ(s.device_type, "usbjmicron");
  EXPECT_EQ(s.model, "Hitachi HDS721050DLE630");
  EXPECT_EQ(s.serial, "MSK423Y20S3HBC");
  EXPECT_EQ(s.wwn, "5000cca37fca81a8");
  EXPECT_EQ(s.health_passed, false);
  EXPECT_EQ(s.smartctl_exit_status, 216);
  EXPECT_EQ(s.reallocated_sectors, 1975u);
  EXPECT_EQ(s.pending_sectors, 8u);
  EXPECT_EQ(s.temperature_c, 25);
  EXPECT_EQ(s.power_on_hours, 65592u);
  EXPECT_EQ(s.power_cycles, 86u);
  const SmartAttribute* a5 = Attr(s, 5);
  ASSERT_NE(a5, nullptr);
  EXPECT_EQ(a5->when_failed, "now");
  EXPECT_TRUE(a5->prefailure);
  EXPECT_EQ(a5->raw, 1975u);
  ASSERT_EQ(s.self_tests.size(), 21u);
  EXPECT_EQ(s.self_tests[2].type, "extended");
  EXPECT_EQ(s.self_tests[2].status, "Completed: read failure");
  EXPECT_EQ(s.self_tests[2].passed, false);
  EXPECT_EQ(s.self_tests[2].lifetime_hours, 4u);
  // The drive's 16-bit self-test hour counter wrapped: 42, 18, 4, then 65530.
  EXPECT_EQ(s.self_tests[3].lifetime_hours, 65530u);
}

TEST(SmartctlParserTest, SeagateWith304ReallocatedSectors) {
  SmartSnapshot s = Parse("ata-hdd-seagate-ST3500418AS-reallocated-304.json");
  EXPECT_EQ(s.model, "ST3500418AS");
  EXPECT_EQ(s.reallocated_sectors, 304u);
  EXPECT_EQ(s.reported_uncorrectable, 0u);
  EXPECT_EQ(s.command_timeouts, 0u);
  EXPECT_EQ(s.temperature_c, 33);
  EXPECT_EQ(s.power_on_hours, 44668u);
  EXPECT_EQ(s.power_cycles, 26u);
  EXPECT_EQ(s.capacity_bytes, 500107862016u);
  EXPECT_EQ(s.rotation_rpm, 7200);
  EXPECT_EQ(s.health_passed, true);
}

TEST(SmartctlParserTest, HgstWithCrcErrorsExit64) {
  SmartSnapshot s = Parse("ata-hdd-hgst-HUS724020ALE640-crc-errors-exit64.json");
  EXPECT_EQ(s.model, "HGST HUS724020ALE640");
  EXPECT_EQ(s.udma_crc_errors, 12u);
  EXPECT_EQ(s.smartctl_exit_status, 64);
  EXPECT_EQ(s.power_on_hours, 83425u);
  EXPECT_EQ(s.temperature_c, 26);
  EXPECT_EQ(s.health_passed, true);
}

const SmartAttribute& Attribute(const SmartSnapshot& s, int id) {
  static const SmartAttribute kNone;
  for (const SmartAttribute& a : s.attributes)
    if (a.id == id) return a;
  ADD_FAILURE() << "no attribute " << id;
  return kNone;
}

// Where smartctl's 48-bit raw value packs several fields, the attribute keeps
// smartctl's own reading of it, and the number a person reads is its lead.
TEST(SmartctlParserTest, PackedRawValuesKeepWhatSmartctlShows) {
  SmartSnapshot hgst = Parse("ata-hdd-hgst-HUS724020ALE640-crc-errors-exit64.json");
  const SmartAttribute& temp = Attribute(hgst, 194);
  EXPECT_EQ(temp.raw, 176094511130u);
  EXPECT_EQ(temp.raw_string, "26 (Min/Max 13/41)");
  EXPECT_EQ(RawShownNumber(temp), 26u);
  const SmartAttribute& spin = Attribute(hgst, 3);
  EXPECT_EQ(spin.raw, 38682755495u);
  EXPECT_EQ(spin.raw_string, "423 (Average 428)");
  EXPECT_EQ(RawShownNumber(spin), 423u);

  SmartSnapshot seagate = Parse("megaraid-sat-hdd-seagate-ST6000NM0115.json");
  EXPECT_EQ(RawShownNumber(Attribute(seagate, 240)), 44299u);  // "44299h+04m+54.612s"
  EXPECT_EQ(RawShownNumber(Attribute(seagate, 194)), 25u);     // "25 (0 7 0 0 0)"
  EXPECT_EQ(RawShownNumber(Attribute(seagate, 188)), 0u);      // "0 0 0"
  // A vendor's rate that smartctl prints whole is the number itself.
  EXPECT_EQ(RawShownNumber(Attribute(seagate, 1)), 181426040u);

  SmartSnapshot hours = Parse("ata-hdd-attributes-only-jA.json");
  EXPECT_EQ(RawShownNumber(Attribute(hours, 9)), 2725u);  // "2725 (151 234 0)"

  // No string, or one that is no count: the raw number.
  SmartAttribute bare;
  bare.raw = 7;
  EXPECT_EQ(RawShownNumber(bare), 7u);
  bare.raw_string = "0x000a00120034";
  EXPECT_EQ(RawShownNumber(bare), 7u);
}

TEST(SmartctlParserTest, OldSeagateWithoutRotationRateOrWwn) {
  SmartSnapshot s = Parse("ata-hdd-seagate-ST3200820AS-error-log-exit64.json");
  EXPECT_EQ(s.rotation_rpm, std::nullopt);
  EXPECT_EQ(s.wwn, std::nullopt);
  EXPECT_EQ(s.smartctl_exit_status, 64);
  EXPECT_EQ(s.power_on_hours, 100161u);
  EXPECT_EQ(s.temperature_c, 33);
}

TEST(SmartctlParserTest, HeliumUltrastarKeepsDoubleSpaceModel) {
  SmartSnapshot s = Parse("ata-hdd-wdc-WUH721816ALE6L4-helium-exit64.json");
  EXPECT_EQ(s.model, "WDC  WUH721816ALE6L4");
  EXPECT_EQ(s.udma_crc_errors, 1u);
  EXPECT_EQ(s.capacity_bytes, 16000900661248u);
  EXPECT_EQ(s.smartctl_exit_status, 64);
}

TEST(SmartctlParserTest, IntelS4500WornSsd) {
  SmartSnapshot s = Parse("ata-ssd-intel-S4500-SSDSC2KB240G7-worn-realloc4.json");
  EXPECT_EQ(s.reallocated_sectors, 4u);
  EXPECT_EQ(s.rotation_rpm, 0);  // ATA rotation_rate 0: solid state
  EXPECT_EQ(s.temperature_c, 23);
  EXPECT_EQ(s.power_on_hours, 49466u);
}

TEST(SmartctlParserTest, Micron5300TimeoutsAndCrc) {
  SmartSnapshot s = Parse("ata-ssd-micron-5300-MTFDDAK1T9TDS.json");
  EXPECT_EQ(s.model, "Micron_5300_MTFDDAK1T9TDS");
  EXPECT_EQ(s.command_timeouts, 29u);
  EXPECT_EQ(s.udma_crc_errors, 24u);
  EXPECT_EQ(s.reported_uncorrectable, 0u);
}

TEST(SmartctlParserTest, CrucialM4ReportsZeroDegreesWhichIsUnknown) {
  SmartSnapshot s = Parse("ata-ssd-crucial-m4-MTFDDAK128MAM-xall.json");
  EXPECT_EQ(s.serial, "123009116906");
  EXPECT_EQ(s.wwn, "500a075109116906");
  // temperature.current, SCT status and attribute 194 all say 0.
  EXPECT_EQ(s.temperature_c, std::nullopt);
  EXPECT_FALSE(s.parse_warnings.empty());
  EXPECT_EQ(s.rotation_rpm, 0);
  EXPECT_TRUE(s.self_tests.empty());
  EXPECT_EQ(s.power_cycles, 1931u);
}

TEST(SmartctlParserTest, OczVertexInProgressEntryIsNotAPass) {
  SmartSnapshot s = Parse("ata-ssd-ocz-vertex2-xall-smartctl7.2.json");
  EXPECT_EQ(s.wwn, "5e83a97fcd61f249");
  EXPECT_EQ(s.firmware, "1.37");
  ASSERT_EQ(s.self_tests.size(), 1u);
  // status value 249 "Self-test routine in progress", which smartctl marks passed:true.
  EXPECT_EQ(s.self_tests[0].passed, std::nullopt);
  EXPECT_EQ(s.self_tests[0].status, "Self-test routine in progress");
}

TEST(SmartctlParserTest, Samsung860EvoExtendedSelfTestLog) {
  SmartSnapshot s = Parse("ata-ssd-samsung-860evo-500g-xall.json");
  EXPECT_EQ(s.model, "Samsung SSD 860 EVO 500GB");
  EXPECT_EQ(s.serial, "S3YZNB0KB00864E");
  EXPECT_EQ(s.wwn, "5002538e40a22954");
  ASSERT_EQ(s.self_tests.size(), 19u);
  EXPECT_EQ(s.self_tests[0].lifetime_hours, 14417u);
  EXPECT_EQ(s.self_tests[0].passed, true);
  EXPECT_EQ(s.temperature_c, 36);
  EXPECT_EQ(s.power_on_hours, 14551u);
}

TEST(SmartctlParserTest, AttributesOnlyOutputTakesHoursFromAttribute9) {
  SmartSnapshot s = Parse("ata-hdd-attributes-only-jA.json");
  EXPECT_EQ(s.protocol, "ATA");
  EXPECT_EQ(s.model, "");
  EXPECT_EQ(s.health_passed, std::nullopt);
  EXPECT_EQ(s.temperature_c, 29);
  // Raw "2725 (151 234 0)": raw.value 167031278144165 packs more than hours.
  EXPECT_EQ(s.power_on_hours, 2725u);
  EXPECT_EQ(s.power_cycles, 354u);
}

TEST(SmartctlParserTest, HealthOnlyOutput) {
  SmartSnapshot s = Parse("ata-health-only-jH.json");
  EXPECT_EQ(s.health_passed, true);
  EXPECT_EQ(s.temperature_c, std::nullopt);
  EXPECT_EQ(s.power_on_hours, std::nullopt);
  EXPECT_EQ(s.capacity_bytes, std::nullopt);
  EXPECT_TRUE(s.attributes.empty());
}

TEST(SmartctlParserTest, MegaraidSeagateKeepsMessagesAndType) {
  SmartSnapshot s = Parse("megaraid-sat-hdd-seagate-ST6000NM0115.json");
  EXPECT_EQ(s.device_type, "sat+megaraid,14");
  EXPECT_EQ(s.model, "ST6000NM0115-1YZ110");
  EXPECT_EQ(s.serial, "ZAD2C11G");
  EXPECT_EQ(s.wwn, "5000c500a496983d");
  EXPECT_EQ(s.smartctl_exit_status, 4);
  ASSERT_EQ(s.messages.size(), 1u);
  EXPECT_EQ(s.messages[0], "Warning: This result is based on an Attribute check.");
  EXPECT_EQ(s.command_timeouts, 0u);
  EXPECT_EQ(s.temperature_c, 25);
}

TEST(SmartctlParserTest, SandiskUsbWithoutTemperature) {
  SmartSnapshot s = Parse("usb-sat-sandisk-pssd.json");
  EXPECT_EQ(s.model, "SanDisk pSSD");
  EXPECT_EQ(s.temperature_c, std::nullopt);  // no temperature key, no 190/194
  EXPECT_EQ(s.power_on_hours, 11u);
  EXPECT_EQ(s.power_cycles, 223u);
  EXPECT_EQ(s.pending_sectors, std::nullopt);
}

TEST(SmartctlParserTest, HpOemReportedUncorrectable) {
  SmartSnapshot s = Parse("ata-hdd-hp-MB0500EBNCR-oem.json");
  EXPECT_EQ(s.model, "MB0500EBNCR");
  EXPECT_EQ(s.reported_uncorrectable, 1u);
  EXPECT_EQ(s.power_on_hours, 89214u);
}

TEST(SmartctlParserTest, SmartSupportAsBareBoolean) {
  SmartSnapshot s = Parse("info-sat-wd-red-sa500-smart-support-bool.json");
  EXPECT_EQ(s.model, "WD Red SA500 2.5 4TB");
  EXPECT_EQ(s.wwn, "5001b444a5523895");
  EXPECT_EQ(s.capacity_bytes, 4000787030016u);
  EXPECT_EQ(s.health_passed, std::nullopt);
  EXPECT_EQ(s.smartctl_exit_status, std::nullopt);
}

TEST(SmartctlParserTest, FarmLogOnlyIsAllUnknown) {
  SmartSnapshot s = Parse("ata-hdd-seagate-farm-log-only.json");
  EXPECT_EQ(s.protocol, "ATA");
  EXPECT_EQ(s.model, "");
  EXPECT_EQ(s.health_passed, std::nullopt);
  EXPECT_EQ(s.power_on_hours, std::nullopt);
}

// --- NVMe -----------------------------------------------------------------

TEST(SmartctlParserTest, Samsung970EvoMediaErrors) {
  SmartSnapshot s = Parse("nvme-samsung-970evo-500g-media-errors.json");
  EXPECT_EQ(s.protocol, "NVMe");
  EXPECT_EQ(s.model, "Samsung SSD 970 EVO 500GB");
  EXPECT_EQ(s.serial, "S466NX0M776250H");
  EXPECT_EQ(s.firmware, "2B2QEXE7");
  EXPECT_EQ(s.capacity_bytes, 500107862016u);
  EXPECT_EQ(s.rotation_rpm, 0);
  EXPECT_EQ(s.wwn, std::nullopt);
  EXPECT_EQ(s.temperature_c, 35);
  EXPECT_EQ(s.power_on_hours, 12798u);
  EXPECT_EQ(s.power_cycles, 25u);
  ASSERT_TRUE(s.nvme.has_value());
  EXPECT_EQ(s.nvme->media_errors, 7u);
  EXPECT_EQ(s.nvme->critical_warning, 0u);
  EXPECT_EQ(s.nvme->percentage_used, 3);
  EXPECT_EQ(s.nvme->available_spare, 99);
  EXPECT_EQ(s.nvme->available_spare_threshold, 10);
  EXPECT_EQ(s.nvme->unsafe_shutdowns, 10u);
  EXPECT_EQ(s.nvme->num_err_log_entries, 62u);
  EXPECT_EQ(s.reallocated_sectors, std::nullopt);
  EXPECT_TRUE(s.attributes.empty());
}

TEST(SmartctlParserTest, IntelP4500At75PercentUsed) {
  SmartSnapshot s = Parse("nvme-intel-P4500-SSDPE2KX020T7-75pct-used.json");
  ASSERT_TRUE(s.nvme.has_value());
  EXPECT_EQ(s.nvme->percentage_used, 75);
  EXPECT_EQ(s.nvme->unsafe_shutdowns, 106u);
  EXPECT_EQ(s.temperature_c, 19);
  EXPECT_EQ(s.power_on_hours, 49441u);
}

TEST(SmartctlParserTest, HgstSn200OldSmartctlCapacityFromTotal) {
  SmartSnapshot s = Parse("nvme-hgst-sn200-HUSMR7632BHP301-smartctl7.1.json");
  EXPECT_EQ(s.capacity_bytes, 3204045602816u);  // nvme_total_capacity; no user_capacity key
  ASSERT_TRUE(s.nvme.has_value());
  EXPECT_EQ(s.nvme->num_err_log_entries, 34u);
  EXPECT_EQ(s.nvme->percentage_used, 5);
  EXPECT_EQ(s.nvme->unsafe_shutdowns, 29u);
  EXPECT_EQ(s.temperature_c, 40);
}

TEST(SmartctlParserTest, OptaneSpareThresholdZero) {
  SmartSnapshot s = Parse("nvme-intel-optane-MEMPEK1W032GA.json");
  ASSERT_TRUE(s.nvme.has_value());
  EXPECT_EQ(s.nvme->available_spare_threshold, 0);  // reported as 0: a value, not unknown
  EXPECT_EQ(s.nvme->unsafe_shutdowns, 173u);
  EXPECT_EQ(s.power_on_hours, 41159u);
}

// --- SCSI -----------------------------------------------------------------

TEST(SmartctlParserTest, SasWithoutSmartctlHeaderHas56GrownDefects) {
  SmartSnapshot s = Parse("scsi-sas-seagate-ST4000NM0043-no-smartctl-header.json");
  EXPECT_EQ(s.protocol, "SCSI");
  EXPECT_EQ(s.model, "SEAGATE ST4000NM0043");
  EXPECT_EQ(s.firmware, "MS03");
  EXPECT_EQ(s.reallocated_sectors, 56u);
  EXPECT_EQ(s.smartctl_exit_status, std::nullopt);
  EXPECT_EQ(s.power_on_hours, 43549u);
  EXPECT_EQ(s.temperature_c, 34);
  EXPECT_EQ(s.rotation_rpm, 7200);
}

TEST(SmartctlParserTest, Smartctl67ExperimentalJson) {
  SmartSnapshot s = Parse("scsi-sas-seagate-ST1200MM0088-smartctl6.7.json");
  EXPECT_EQ(s.model, "SEAGATE ST1200MM0088");
  EXPECT_EQ(s.firmware, "N004");
  EXPECT_EQ(s.rotation_rpm, 10500);
  EXPECT_EQ(s.power_on_hours, 5675u);
  EXPECT_EQ(s.reallocated_sectors, 0u);
  EXPECT_FALSE(s.parse_warnings.empty());  // "experimental JSON"
}

TEST(SmartctlParserTest, HitachiSasPowerCyclesFromStartStopCounter) {
  SmartSnapshot s = Parse("scsi-sas-hitachi-H109060SESUN600G-10k.json");
  EXPECT_EQ(s.model, "HITACHI H109060SESUN600G");
  EXPECT_EQ(s.power_cycles, 45u);
  EXPECT_EQ(s.rotation_rpm, 10020);
  EXPECT_EQ(s.wwn, std::nullopt);  // the redacted 0x1234567890abcdef is no NAA name
  EXPECT_EQ(s.temperature_c, 27);
}

TEST(SmartctlParserTest, IscsiLunIsNotReportedHealthy) {
  SmartSnapshot s = Parse("scsi-iscsi-iet-virtual-disk-exit4.json");
  EXPECT_EQ(s.model, "IET VIRTUAL-DISK");
  EXPECT_EQ(s.health_passed, std::nullopt);  // smart_support.enabled=false
  EXPECT_EQ(s.temperature_c, std::nullopt);  // 0
  EXPECT_EQ(s.rotation_rpm, std::nullopt);   // SCSI 0 means "not reported" too
  EXPECT_EQ(s.wwn, std::nullopt);            // concatenated logical_unit_id
  EXPECT_EQ(s.smartctl_exit_status, 4);
}

TEST(SmartctlParserTest, QemuDiskHasNoHealth) {
  SmartSnapshot s = Parse("scsi-qemu-harddisk-vm-exit4.json");
  EXPECT_EQ(s.model, "QEMU QEMU HARDDISK");
  EXPECT_EQ(s.health_passed, std::nullopt);
  EXPECT_EQ(s.temperature_c, std::nullopt);
  EXPECT_EQ(s.serial, "");
  EXPECT_EQ(s.capacity_bytes, 163842097152u);
}

TEST(SmartctlParserTest, SasSelfTestResults) {
  SmartSnapshot s = Parse("scsi-sas-seagate-14tb-anonymised-spc5.json");
  ASSERT_EQ(s.self_tests.size(), 4u);
  EXPECT_EQ(s.self_tests[0].type, "extended");  // "Background long"
  EXPECT_EQ(s.self_tests[0].status, "Completed");
  EXPECT_EQ(s.self_tests[0].passed, true);
  EXPECT_EQ(s.self_tests[0].lifetime_hours, 90u);
  EXPECT_EQ(s.self_tests[3].type, "short");
  EXPECT_EQ(s.extended_test_minutes, 1340);  // 80400 s
  EXPECT_EQ(s.wwn, std::nullopt);            // "0x5000cb0847" is too short
}

TEST(SmartctlParserTest, AutodetectedScsiWithoutSmart) {
  SmartSnapshot s = Parse("info-scsi-autodetect-hitachi-no-smart-exit4.json");
  EXPECT_EQ(s.capacity_bytes, std::nullopt);  // user_capacity 0
  EXPECT_EQ(s.health_passed, std::nullopt);
  ASSERT_EQ(s.messages.size(), 1u);
  EXPECT_EQ(s.messages[0], "Device does not support SMART");
}

// --- errors and bad input ---------------------------------------------------

TEST(SmartctlParserTest, PermissionDenied) {
  auto r = ParseSmartctlOutput(ReadFile(FixturePath("smartctl/error-nvme-permission-denied-exit2.json")));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(r.status().message().find("Smartctl open device: /dev/nvme0 failed: Permission denied"),
            std::string::npos);
}

TEST(SmartctlParserTest, OpenFailed) {
  auto r = ParseSmartctlOutput(ReadFile(FixturePath("smartctl/error-open-failed-windows-exit2.json")));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(r.status().message().find("Open failed, Error=5"), std::string::npos);
}

TEST(SmartctlParserTest, ScanOutputIsNotAReport) {
  auto r = ParseSmartctlOutput(ReadFile(FixturePath("smartctl/scan-nvme.json")));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("--scan"), std::string::npos);
}

TEST(SmartctlParserTest, Smartctl6WithoutJsonNamesTheVersionNeeded) {
  const char* text =
      "smartctl 6.6 2016-05-31 r4324 [x86_64-linux-4.9.0-8-amd64] (local build)\n"
      "Copyright (C) 2002-16, Bruce Allen, Christian Franke, www.smartmontools.org\n\n"
      "=======> UNRECOGNIZED OPTION: j\n";
  auto r = ParseSmartctlOutput(text, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(r.status().message().find("smartctl 6.6"), std::string::npos);
  EXPECT_NE(r.status().message().find("7.0 or newer"), std::string::npos);
}

TEST(SmartctlParserTest, EmptyAndTruncatedOutput) {
  auto empty = ParseSmartctlOutput("", 2);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(empty.status().message().find("printed nothing"), std::string::npos);

  std::string text = ReadFile(FixturePath("smartctl/nvme-corsair-force-mp510.json"));
  auto truncated = ParseSmartctlOutput(text.substr(0, text.size() / 2));
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(truncated.status().message().find("not valid JSON"), std::string::npos);

  auto array = ParseSmartctlOutput("[1,2,3]");
  ASSERT_FALSE(array.ok());
  EXPECT_EQ(array.status().code(), StatusCode::kCorrupt);
}

TEST(SmartctlParserTest, AsleepIsASkipNotAnError) {
  // Shape of smartctl -n standby on a sleeping disk (hand-made from smartctl's
  // documented message "Device is in STANDBY mode, exit(2)").
  const char* text = R"js({"json_format_version":[1,0],
    "smartctl":{"version":[7,3],"exit_status":2,
      "messages":[{"string":"Device is in STANDBY mode, exit(2)","severity":"information"}]},
    "device":{"name":"/dev/sdb","type":"sat","protocol":"ATA"}})js";
  auto r = ParseSmartctlOutput(text, 2);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->asleep);
  EXPECT_EQ(r->skip_reason.rfind("skipped: asleep", 0), 0u);
}

TEST(SmartctlParserTest, WrongTypesHugeRawValuesAndAbsurdTemperatures) {
  // Hand-made bad input: every field in the wrong shape or range.
  const char* text = R"js({
    "smartctl":{"exit_status":0},
    "device":{"name":"/dev/sdz","type":"sat","protocol":"ATA"},
    "model_name": 42,
    "serial_number": ["x"],
    "user_capacity": {"bytes": "lots"},
    "rotation_rate": "fast",
    "smart_status": {"passed": "yes"},
    "temperature": {"current": 300},
    "power_on_time": {"hours": -5},
    "power_cycle_count": 1.5,
    "wwn": {"naa": 5, "oui": 99999999, "id": 1},
    "ata_smart_attributes": {"table": [
      {"id": 5, "name": "Reallocated_Sector_Ct", "value": 100, "worst": 100, "thresh": 10,
       "raw": {"value": 281474976710656, "string": "x"}},
      {"id": 197, "name": "Current_Pending_Sector", "value": "100",
       "raw": {"value": 18446744073709551615, "string": "?"}},
      {"id": 198, "name": "Offline_Uncorrectable", "raw": {"value": 281474976710655, "string": "y"}},
      {"id": 194, "name": "Temperature_Celsius", "raw": {"value": 0, "string": "-12"}},
      {"id": 999, "name": "bogus"},
      "not an object"
    ]}
  })js";
  auto r = ParseSmartctlOutput(text);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const SmartSnapshot& s = r->snapshot;
  EXPECT_EQ(s.model, "");
  EXPECT_EQ(s.serial, "");
  EXPECT_EQ(s.capacity_bytes, std::nullopt);
  EXPECT_EQ(s.rotation_rpm, std::nullopt);
  EXPECT_EQ(s.health_passed, std::nullopt);
  EXPECT_EQ(s.temperature_c, std::nullopt);
  EXPECT_EQ(s.power_on_hours, std::nullopt);
  EXPECT_EQ(s.power_cycles, std::nullopt);
  EXPECT_EQ(s.wwn, std::nullopt);
  EXPECT_EQ(s.reallocated_sectors, std::nullopt);  // 2^48: wider than 48 bits
  EXPECT_EQ(s.pending_sectors, std::nullopt);
  EXPECT_EQ(s.offline_uncorrectable, 281474976710655u);  // 2^48-1 still fits
  ASSERT_NE(Attr(s, 197), nullptr);
  EXPECT_EQ(Attr(s, 197)->value, std::nullopt);
  EXPECT_EQ(Attr(s, 999), nullptr);
  EXPECT_GE(s.parse_warnings.size(), 10u);
  // The contract still serialises unknowns as null.
  auto j = SmartSnapshotToJson(s);
  EXPECT_TRUE(j["temperature_c"].is_null());
  EXPECT_TRUE(j["model"].is_null());
  EXPECT_TRUE(j["reallocated_sectors"].is_null());
}

TEST(SmartctlParserTest, UnknownProtocolIsReportedAsUnknown) {
  auto r = ParseSmartctlOutput(R"js({"device":{"name":"/dev/x","type":"cciss","protocol":"FancyBus"},
                                   "smart_status":{"passed":true}})js");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->snapshot.protocol, "");
  EXPECT_TRUE(SmartSnapshotToJson(r->snapshot)["protocol"].is_null());
  ASSERT_FALSE(r->snapshot.parse_warnings.empty());
  EXPECT_NE(r->snapshot.parse_warnings[0].find("FancyBus"), std::string::npos);
}

TEST(SmartctlParserTest, NvmeSelfTestLog) {
  // Hand-made in the shape smartctl >= 7.3 writes (no NVMe self-test capture
  // among the fixtures): one test running at 30%, two in the log.
  const char* text = R"js({
    "device":{"name":"/dev/nvme0","type":"nvme","protocol":"NVMe"},
    "nvme_self_test_log":{
      "current_self_test_operation":{"value":2,"string":"Extended self-test in progress"},
      "current_self_test_completion_percent":30,
      "table":[
        {"self_test_code":{"value":1,"string":"Short"},
         "self_test_result":{"value":0,"string":"Completed without error"},"power_on_hours":1500},
        {"self_test_code":{"value":2,"string":"Extended"},
         "self_test_result":{"value":7,"string":"Completed: failed segments"},"power_on_hours":1400},
        {"self_test_code":{"value":1,"string":"Short"},
         "self_test_result":{"value":1,"string":"Aborted: Self-test command"},"power_on_hours":1300}
      ]}})js";
  auto r = ParseSmartctlOutput(text);
  ASSERT_TRUE(r.ok());
  const SmartSnapshot& s = r->snapshot;
  EXPECT_TRUE(s.self_test_running);
  EXPECT_EQ(s.self_test_remaining_percent, 70);
  ASSERT_EQ(s.self_tests.size(), 3u);
  EXPECT_EQ(s.self_tests[0].type, "short");
  EXPECT_EQ(s.self_tests[0].passed, true);
  EXPECT_EQ(s.self_tests[0].lifetime_hours, 1500u);
  EXPECT_EQ(s.self_tests[1].type, "extended");
  EXPECT_EQ(s.self_tests[1].passed, false);
  EXPECT_EQ(s.self_tests[2].passed, std::nullopt);  // aborted: no verdict
}

TEST(SmartctlParserTest, WwnFormatting) {
  EXPECT_EQ(FormatAtaWwn(5, 0xcca, 0x264eb01d7), "5000cca264eb01d7");
  EXPECT_EQ(FormatAtaWwn(16, 1, 1), std::nullopt);
  EXPECT_EQ(NormaliseScsiWwn("0x5000C500A1B2C3D4"), "5000c500a1b2c3d4");
  EXPECT_EQ(NormaliseScsiWwn("0x60000000000000000e00000000010001"), "60000000000000000e00000000010001");
  EXPECT_EQ(NormaliseScsiWwn("0x30000001000000010x60000000000000000e00000000010001"), std::nullopt);
  EXPECT_EQ(NormaliseScsiWwn("0x5000cb0847"), std::nullopt);
}

}  // namespace
}  // namespace dp
