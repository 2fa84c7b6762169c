#include "replay/nas_recording_util.h"

#include <filesystem>
#include <fstream>

#include "base/command_capture.h"
#include "support/temp_dir.h"

namespace dp::testing {
namespace {

namespace fs = std::filesystem;

void Write(const fs::path& root, const std::string& rel, const std::string& text) {
  fs::create_directories((root / rel).parent_path());
  std::ofstream(root / rel, std::ios::binary) << text;
}

void Disk(const fs::path& root, const std::string& devpath, const std::string& name,
          std::uint64_t sectors, const std::string& devnum, int rotational, const std::string& udev,
          std::initializer_list<const char*> partitions) {
  std::string rel = "sys/" + devpath + "/block/" + name;
  Write(root, rel + "/size", std::to_string(sectors) + "\n");
  Write(root, rel + "/dev", devnum + "\n");
  Write(root, rel + "/queue/rotational", std::to_string(rotational) + "\n");
  Write(root, rel + "/queue/logical_block_size", "512\n");
  Write(root, rel + "/queue/physical_block_size", rotational ? "4096\n" : "512\n");
  for (const char* p : partitions) Write(root, rel + "/" + p + "/partition", "1\n");
  Write(root, "udev/b" + devnum, udev);
  fs::create_directories(root / "sys/block");
  fs::create_symlink(fs::path("..") / devpath / "block" / name, root / "sys/block" / name);
}

void Link(const fs::path& root, const std::string& dir, const std::string& name, const std::string& target) {
  fs::create_directories(root / dir);
  fs::create_symlink(target, root / dir / name);
}

void Capture(const std::string& dir, int& n, std::vector<std::string> argv, const std::string& out,
             int exit_code, const std::string& err = "") {
  CommandCapture c;
  c.argv = std::move(argv);
  c.output.stdout_text = out;
  c.output.stderr_text = err;
  c.output.exit_code = exit_code;
  if (!WriteCapture(dir, ++n, c).ok()) std::abort();
}

std::string Fixture(const std::string& name) { return ReadFile(FixturePath("smartctl/" + name)); }

std::vector<std::string> Smartctl(const std::string& dev) {
  return {"smartctl", "-x", "-j", "-n", "standby", dev};
}

}  // namespace

void WriteNasRecording(const std::string& dir) {
  fs::path root(dir);
  Write(root, "platform", "linux\n");
  const std::string sata = "devices/pci0000:00/0000:00:17.0/ata";
  Disk(root, sata + "1/host0/target0:0:0/0:0:0:0", "sda", 27344764928, "8:0", 1,
       "E:ID_BUS=ata\nE:ID_MODEL_ENC=WDC\\x20WD140EDFZ-11A0VA0\nE:ID_SERIAL_SHORT=9RK1XXXX\n"
       "E:ID_WWN=0x5000cca264eb01d7\nE:ID_REVISION=81.00A81\nE:ID_ATA_ROTATION_RATE_RPM=5400\n",
       {"sda1"});
  Disk(root, sata + "2/host1/target1:0:0/1:0:0:0", "sdb", 11721045168, "8:16", 1,
       "E:ID_BUS=ata\nE:ID_MODEL_ENC=ST6000NM0115-1YZ110\nE:ID_SERIAL_SHORT=ZAD2C11G\n"
       "E:ID_WWN=0x5000c500a496983d\nE:ID_REVISION=SN04\nE:ID_ATA_ROTATION_RATE_RPM=7200\n",
       {"sdb1"});
  Disk(root, sata + "3/host2/target2:0:0/2:0:0:0", "sdc", 7814037168, "8:32", 1,
       "E:ID_BUS=ata\nE:ID_MODEL_ENC=WDC\\x20WD40EFRX-68N32N0\nE:ID_SERIAL_SHORT=WD-WCC7K0000000\n",
       {"sdc1"});
  Disk(root, sata + "4/host3/target3:0:0/3:0:0:0", "sdd", 976773168, "8:48", 1,
       "E:ID_BUS=ata\nE:ID_MODEL_ENC=ST3500418AS\nE:ID_SERIAL_SHORT=5VMSTSSX\n", {"sdd1"});
  Disk(root, "devices/pci0000:00/0000:00:1d.0/0000:03:00.0/nvme/nvme0", "nvme0n1", 976773168, "259:0",
       0,
       "E:ID_MODEL_ENC=Samsung\\x20SSD\\x20970\\x20EVO\\x20500GB\nE:ID_SERIAL_SHORT=S466NX0M776250H\n"
       "E:ID_REVISION=2B2QEXE7\nE:ID_WWN=eui.0025385881b0a6e2\n",
       {"nvme0n1p1", "nvme0n1p2"});
  Link(root, "dev/disk/by-id", "ata-WDC_WD140EDFZ-11A0VA0_9RK1XXXX-part1", "../../sda1");
  Link(root, "dev/disk/by-id", "wwn-0x5000c500a496983d-part1", "../../sdb1");
  Link(root, "dev/disk/by-id", "ata-WDC_WD40EFRX-68N32N0_WD-WCC7K0000000-part1", "../../sdc1");
  Link(root, "dev/disk/by-id", "nvme-Samsung_SSD_970_EVO_500GB_S466NX0M776250H", "../../nvme0n1");
  Write(root, "proc/mdstat",
        "Personalities : [raid1]\n"
        "md0 : active raid1 nvme0n1p1[0] sdd1[1]\n"
        "      104320 blocks super 1.2 [2/2] [UU]\n\n"
        "unused devices: <none>\n");

  int n = 0;
  Capture(dir, n, {"zpool", "status", "-j", "--json-int", "-P"}, "", 2,
          "invalid option 'j'\nusage:\n\tstatus [-c [script1,script2,...]] [-igLpPstvxD]  [-T d|u] [pool] ...\n");
  Capture(dir, n, {"zpool", "status", "-P", "-p"},
          "  pool: tank\n"
          " state: ONLINE\n"
          "  scan: scrub in progress since Sun Nov 30 01:00:00 2025\n"
          "\t1.50T / 12.0T scanned at 1.2G/s, 1.50T / 12.0T issued at 1.2G/s\n"
          "\t0B repaired, 12.50% done, 02:30:00 to go\n"
          "config:\n"
          "\n"
          "\tNAME                                                            STATE     READ WRITE CKSUM\n"
          "\ttank                                                            ONLINE       0     0     0\n"
          "\t  raidz1-0                                                      ONLINE       0     0     0\n"
          "\t    /dev/disk/by-id/ata-WDC_WD140EDFZ-11A0VA0_9RK1XXXX-part1    ONLINE       0     0     0\n"
          "\t    /dev/disk/by-id/wwn-0x5000c500a496983d-part1                ONLINE       0     0     0\n"
          "\t    /dev/disk/by-id/ata-WDC_WD40EFRX-68N32N0_WD-WCC7K0000000-part1  ONLINE   0     0     2\n"
          "\n"
          "errors: No known data errors\n",
          0);
  Capture(dir, n, Smartctl("/dev/nvme0n1"), Fixture("nvme-samsung-970evo-500g-media-errors.json"), 0);
  Capture(dir, n, Smartctl("/dev/sda"), Fixture("ata-hdd-WDC-WD140EDFZ-14tb-healthy.json"), 0);
  Capture(dir, n, Smartctl("/dev/sdb"), Fixture("megaraid-sat-hdd-seagate-ST6000NM0115.json"), 4);
  Capture(dir, n, Smartctl("/dev/sdc"),
          "{\"json_format_version\":[1,0],\"smartctl\":{\"version\":[7,3],\"exit_status\":2,"
          "\"messages\":[{\"string\":\"Device is in STANDBY mode, exit(2)\",\"severity\":\"information\"}]},"
          "\"device\":{\"name\":\"/dev/sdc\",\"type\":\"sat\",\"protocol\":\"ATA\"}}\n",
          2);
  CommandCapture hung;
  hung.argv = Smartctl("/dev/sdd");
  hung.error = Timeout("smartctl -x -j -n standby /dev/sdd: no answer after 60.00 s; killed");
  if (!WriteCapture(dir, ++n, hung).ok()) std::abort();
  Capture(dir, n, {"smartctl", "-j", "-n", "standby", "-t", "short", "/dev/nvme0n1"},
          "{\"smartctl\":{\"version\":[7,3],\"exit_status\":0},"
          "\"device\":{\"name\":\"/dev/nvme0n1\",\"type\":\"nvme\",\"protocol\":\"NVMe\"}}\n",
          0);
}

}  // namespace dp::testing
