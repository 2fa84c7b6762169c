// The notification outbox in the store: entries come back oldest first with
// what was written, survive a reopen, go when removed; a database of the
// previous schema gains the table on open.
#include <gtest/gtest.h>

#include <algorithm>

#include "store/migrations.h"
#include "store/sqlite_db.h"
#include "store/store_test_util.h"

namespace dp {
namespace {

using OutboxStoreTest = testing::StoreFixture;

TEST_F(OutboxStoreTest, EntriesComeBackInOrderSurviveAReopenAndGoWhenRemoved) {
  auto a = store_->AddOutboxEntry("webhook-0", R"({"n":1})", 100);
  auto b = store_->AddOutboxEntry("mail-ops", R"({"n":2})", 101);
  auto c = store_->AddOutboxEntry("webhook-0", R"({"n":3})", 102);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_LT(*a, *b);
  EXPECT_LT(*b, *c);
  Reopen();
  auto all = store_->ListOutbox();
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  ASSERT_EQ(all->size(), 3u);
  EXPECT_EQ((*all)[0].id, *a);
  EXPECT_EQ((*all)[0].sink, "webhook-0");
  EXPECT_EQ((*all)[0].body, R"({"n":1})");
  EXPECT_EQ((*all)[0].created_at, 100);
  EXPECT_EQ((*all)[1].sink, "mail-ops");
  ASSERT_TRUE(store_->RemoveOutboxEntry(*b).ok());
  ASSERT_TRUE(store_->RemoveOutboxEntry(*b).ok());  // already gone: not an error
  ASSERT_TRUE(store_->RemoveOutboxEntry(999999).ok());
  all = store_->ListOutbox();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].id, *a);
  EXPECT_EQ((*all)[1].id, *c);
}

TEST(OutboxMigrationTest, ADatabaseOfThePreviousSchemaGainsAnEmptyOutbox) {
  testing::TempDir dir;
  const std::string path = dir.Path("diskpulse.db");
  {
    auto db = SqliteDb::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    // Every migration before the outbox's.
    const auto& all = SchemaMigrations();
    auto outbox = std::find_if(all.begin(), all.end(),
                               [](const Migration& m) { return m.name == "notification outbox"; });
    ASSERT_NE(outbox, all.end());
    std::vector<Migration> before(all.begin(), outbox);
    ASSERT_TRUE(ApplyMigrations(**db, before).ok());
    ASSERT_TRUE((*db)->Exec("INSERT INTO drives (id, name, first_seen, last_seen) "
                            "VALUES ('wwn-old', 'sdb', 5, 6)")
                    .ok());
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
  EXPECT_TRUE((*store)->ListOutbox()->empty());
  EXPECT_TRUE((*(*store)->GetDrive("wwn-old")).has_value());
  EXPECT_TRUE((*store)->AddOutboxEntry("webhook-0", "{}", 1).ok());
}

}  // namespace
}  // namespace dp
