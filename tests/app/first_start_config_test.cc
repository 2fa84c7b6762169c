// A container's first start on an empty configuration volume: the image's
// template is copied to the -c file and said so; an existing file is never
// touched; a read-only volume runs on the template in place.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "app/first_start_config.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using dp::testing::TempDir;

std::string Read(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(FirstStartConfig, TheTemplateIsWrittenWhereNoneIsThenLeftAlone) {
  TempDir dir;
  const std::string tmpl = dir.Write("image/diskpulse.json", "{\"listen\": \"0.0.0.0:8470\"}\n");
  std::filesystem::create_directories(dir.Path("volume"));
  const std::string target = dir.Path("volume/diskpulse.json");
  auto first = WriteConfigIfMissing(target, tmpl);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->path, target);
  EXPECT_NE(first->message.find("wrote the default configuration to " + target), std::string::npos);
  EXPECT_EQ(Read(target), "{\"listen\": \"0.0.0.0:8470\"}\n");
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);

  std::ofstream(target) << "{\"listen\": \"0.0.0.0:9000\"}\n";  // the owner's edit
  auto again = WriteConfigIfMissing(target, tmpl);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->path, target);
  EXPECT_TRUE(again->message.empty());
  EXPECT_EQ(Read(target), "{\"listen\": \"0.0.0.0:9000\"}\n");
  EXPECT_FALSE(std::filesystem::exists(target + ".new"));
}

TEST(FirstStartConfig, NoTemplateDoesNothingAndAnUnreadableOneIsNamed) {
  TempDir dir;
  auto none = WriteConfigIfMissing(dir.Path("missing.json"), "");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->path, dir.Path("missing.json"));
  EXPECT_TRUE(none->message.empty());
  auto bad = WriteConfigIfMissing(dir.Path("missing.json"), dir.Path("no-template.json"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("DISKPULSE_CONFIG_TEMPLATE"), std::string::npos);
}

TEST(FirstStartConfig, AVolumeThatCannotBeWrittenRunsOnTheTemplate) {
  TempDir dir;
  const std::string tmpl = dir.Write("image/diskpulse.json", "{}\n");
  // A folder that does not exist stands for a volume nothing can be written
  // to (root ignores a read-only mode, not a missing folder).
  const std::string target = dir.Path("absent/diskpulse.json");
  auto r = WriteConfigIfMissing(target, tmpl);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->path, tmpl);
  EXPECT_NE(r->message.find("cannot write " + target), std::string::npos) << r->message;
  EXPECT_NE(r->message.find("image's defaults"), std::string::npos);
}

}  // namespace
}  // namespace dp
