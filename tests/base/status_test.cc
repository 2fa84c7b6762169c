#include "base/status.h"

#include <cerrno>

#include <gtest/gtest.h>

#include "base/result.h"

namespace dp {
namespace {

TEST(StatusTest, OkHasNoMessage) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "ok");
}

TEST(StatusTest, ErrnoMapsToCodes) {
  EXPECT_EQ(ErrnoStatus(ENOENT, "/dev/sdx").code(), StatusCode::kNotFound);
  EXPECT_EQ(ErrnoStatus(EACCES, "x").code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(ErrnoStatus(EIO, "x").code(), StatusCode::kIoError);
  EXPECT_EQ(ErrnoStatus(ENOSPC, "x").code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(ErrnoStatus(ENOENT, "/dev/sdx").message(), "/dev/sdx: No such file or directory");
}

TEST(StatusTest, WithContextPrefixes) {
  Status s = IoError("read failed").WithContext("/dev/sda");
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_EQ(s.ToString(), "I/O error: /dev/sda: read failed");
}

Result<int> Half(int x) {
  if (x % 2) return InvalidArgument("odd");
  return x / 2;
}

Result<int> Quarter(int x) {
  DP_ASSIGN_OR_RETURN(int h, Half(x));
  DP_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

TEST(ResultTest, ValueAndError) {
  auto ok = Quarter(8);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 2);
  auto bad = Quarter(6);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "odd");
  EXPECT_EQ(bad.value_or(-1), -1);
}

TEST(ResultTest, OkStatusWithoutValueIsAnInternalError) {
  Result<int> r{Status::Ok()};
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace dp
