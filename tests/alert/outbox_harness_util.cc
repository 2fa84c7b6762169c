#include "alert/outbox_harness_util.h"

#include <gtest/gtest.h>

#include "http/api.h"
#include "runs/store_notification_outbox.h"

namespace dp::testing {

using namespace std::chrono_literals;

OutboxHarness::OutboxHarness(const std::string& db_path) {
  auto store = Store::Open(db_path);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  if (!store.ok()) return;
  store_ = std::move(store).value();
  outbox_ = std::make_unique<StoreNotificationOutbox>(*store_, clock_);
}

void OutboxHarness::Start(std::unique_ptr<AlertSink> sink, std::optional<SinkPolicy> policy) {
  Stop();
  SinkPolicy quick;
  quick.max_attempts = 100;
  quick.retry_initial = 100ms;
  quick.retry_max = 200ms;
  dispatcher_ = std::make_unique<AlertDispatcher>();
  dispatcher_->SetOutbox(outbox_.get());
  dispatcher_->AddSink(std::move(sink), policy.value_or(quick));
  dispatcher_->Start();
}

void OutboxHarness::Stop() {
  if (!dispatcher_) return;
  dispatcher_->Stop();
  dispatcher_.reset();
}

nlohmann::json OutboxHarness::Health() {
  http::ApiContext ctx;
  ctx.store = store_.get();
  ctx.clock = &clock_;
  ctx.dispatcher = dispatcher_.get();
  auto router = http::BuildApiRouter(ctx);
  http::Response r = router->Route(http::Request::Make(http::Method::kGet, "/api/v1/health"));
  EXPECT_EQ(r.status, 200) << r.body;
  return nlohmann::json::parse(r.body);
}

std::size_t OutboxHarness::OutboxSize() {
  auto entries = store_->ListOutbox();
  EXPECT_TRUE(entries.ok());
  return entries.ok() ? entries->size() : 0;
}

}  // namespace dp::testing
