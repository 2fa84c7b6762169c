#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace dp {
namespace {

using SchedulerStateStoreTest = testing::StoreFixture;

TEST_F(SchedulerStateStoreTest, SetGetOverwriteAndSurviveReopen) {
  auto missing = store_->GetSchedulerState("last:weekly");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
  ASSERT_TRUE(store_->SetSchedulerState("last:weekly", "1767225600").ok());
  ASSERT_TRUE(store_->SetSchedulerState("last:weekly", "1767830400").ok());
  ASSERT_TRUE(store_->SetSchedulerState("queue", R"({"pending":[]})").ok());
  ASSERT_TRUE(store_->SetSchedulerState("empty", "").ok());
  Reopen();
  EXPECT_EQ(*store_->GetSchedulerState("last:weekly"), std::optional<std::string>("1767830400"));
  EXPECT_EQ(*store_->GetSchedulerState("queue"), std::optional<std::string>(R"({"pending":[]})"));
  EXPECT_EQ(*store_->GetSchedulerState("empty"), std::optional<std::string>(""));
  EXPECT_EQ(store_->SetSchedulerState("", "x").code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace dp
