#include "app/lock_file.h"

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "app/database_dir.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using dp::testing::ReadFile;
using dp::testing::TempDir;

TEST(LockFile, HoldsPidAndRemovesItselfWhenAsked) {
  TempDir tmp;
  std::string path = tmp.Path("d.pid");
  {
    auto lock = LockFile::Acquire(path, /*remove_on_release=*/true);
    ASSERT_TRUE(lock.ok()) << lock.status().ToString();
    ASSERT_TRUE((*lock)->WritePid(4242).ok());
    EXPECT_EQ(ReadFile(path), "4242\n");
    ASSERT_TRUE((*lock)->WritePid(7).ok());
    EXPECT_EQ(ReadFile(path), "7\n");
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(LockFile, KeepsTheFileUnlessAsked) {
  TempDir tmp;
  std::string path = tmp.Path("db.lock");
  { ASSERT_TRUE(LockFile::Acquire(path, false).ok()); }
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_TRUE(LockFile::Acquire(path, false).ok());  // a stale file never blocks
}

TEST(LockFile, SecondHolderIsRefusedWithTheFirstPid) {
  TempDir tmp;
  std::string path = tmp.Path("d.pid");
  auto first = LockFile::Acquire(path, true);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE((*first)->WritePid(::getpid()).ok());
  // flock locks belong to the open file, so a second open in this process
  // conflicts just as another process would.
  auto second = LockFile::Acquire(path, true);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(second.status().message().find("process " + std::to_string(::getpid())),
            std::string::npos)
      << second.status().message();
}

TEST(LockFile, LockDiesWithTheProcess) {
  TempDir tmp;
  std::string path = tmp.Path("d.pid");
  pid_t child = ::fork();
  if (child == 0) {
    auto lock = LockFile::Acquire(path, false);
    ::_exit(lock.ok() ? 0 : 1);  // exits holding the lock, without unlocking
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(LockFile::Acquire(path, false).ok());
}

TEST(LockFile, UnwritableFolderIsAnError) {
  auto r = LockFile::Acquire("/nonexistent-dir-xyz/d.pid", true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/nonexistent-dir-xyz/d.pid"), std::string::npos);
}

TEST(DatabaseDir, CreatesTheFolderWhenItsParentExists) {
  TempDir tmp;
  ASSERT_TRUE(PrepareDatabaseDirectory(tmp.Path("var/diskpulse.db")).ok());
  EXPECT_TRUE(std::filesystem::is_directory(tmp.Path("var")));
  ASSERT_TRUE(PrepareDatabaseDirectory(tmp.Path("var/diskpulse.db")).ok());  // idempotent
}

TEST(DatabaseDir, RefusesMissingGrandparentAndFiles) {
  TempDir tmp;
  auto deep = PrepareDatabaseDirectory(tmp.Path("a/b/diskpulse.db"));
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.message().find("cannot create the database directory"), std::string::npos);
  tmp.Write("file", "x");
  auto file = PrepareDatabaseDirectory(tmp.Path("file/diskpulse.db"));
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.message().find("not a directory"), std::string::npos) << file.message();
}

TEST(DatabaseDir, FolderOfPath) {
  EXPECT_EQ(DatabaseDirectory("diskpulse.db"), ".");
  EXPECT_EQ(DatabaseDirectory("./var/diskpulse.db"), "./var");
  EXPECT_EQ(DatabaseDirectory("/diskpulse.db"), "/");
  EXPECT_EQ(DatabaseDirectory("/var/lib/diskpulse/diskpulse.db"), "/var/lib/diskpulse");
}

}  // namespace
}  // namespace dp
