#include "alert/notification.h"

#include <gtest/gtest.h>

#include "base/fake_clock.h"

namespace dp {
namespace {

Alert SampleAlert() {
  Alert a;
  a.id = 12;
  a.drive_id = "wwn-5000c500a1b2c3d4";
  a.condition = "slowdown:seq:qd8-1m:mb_per_s";
  a.severity = "warning";
  a.summary = "sda seq throughput dropped 18%: \"152\" and 150 MB/s";
  a.evidence_json = R"({"drive_name":"sda","baseline":{"median":185.0}})";
  a.opened_at = 1'767'225'600;
  return a;
}

TEST(Notification, DriveNameComesFromEvidence) {
  Notification n = MakeNotification(NotifyKind::kOpened, SampleAlert(), FakeClock().Now(), "nas");
  EXPECT_EQ(n.Drive(), "sda");
  EXPECT_EQ(n.Priority(), 4);
  EXPECT_EQ(n.Title().rfind("[warning] sda seq throughput dropped 18%", 0), 0u) << n.Title();
  EXPECT_NE(n.Text().find("\"median\": 185.0"), std::string::npos) << n.Text();
  EXPECT_NE(n.Text().find("Host: nas"), std::string::npos);
}

TEST(Notification, JsonDocument) {
  Notification n = MakeNotification(NotifyKind::kResolved, SampleAlert(), FakeClock().Now(), "nas");
  nlohmann::json j = NotificationToJson(n);
  EXPECT_EQ(j["event"], "resolved");
  EXPECT_EQ(j["drive"], "sda");
  EXPECT_EQ(j["alert"]["id"], 12);
  EXPECT_EQ(j["evidence"]["baseline"]["median"], 185.0);
  EXPECT_EQ(j["priority"], 2);
  EXPECT_EQ(j["at"], "2026-01-01T00:00:00Z");
}

TEST(Notification, TemplatesEscapeForJsonOnlyWhenAsked) {
  Notification n = MakeNotification(NotifyKind::kOpened, SampleAlert(), FakeClock().Now());
  std::string slack =
      RenderTemplate(R"js({"text": "{{summary}} on {{drive}} ({{severity}})"})js", n,
                     /*json_escape=*/true);
  nlohmann::json j = nlohmann::json::parse(slack);  // must stay valid JSON
  EXPECT_EQ(j["text"], "sda seq throughput dropped 18%: \"152\" and 150 MB/s on sda (warning)");
  std::string plain = RenderTemplate("{{ summary }}|{{unknown}}|{{priority}}", n, false);
  EXPECT_EQ(plain, "sda seq throughput dropped 18%: \"152\" and 150 MB/s|{{unknown}}|4");
  std::string whole = RenderTemplate("{\"n\": {{json}}}", n, true);
  EXPECT_EQ(nlohmann::json::parse(whole)["n"]["alert"]["condition"], SampleAlert().condition);
  EXPECT_EQ(RenderTemplate("x {{ unclosed", n, false), "x {{ unclosed");
}

TEST(Notification, TestNotification) {
  Notification n = MakeTestNotification(FakeClock().Now(), "nas");
  EXPECT_EQ(n.kind, NotifyKind::kTest);
  EXPECT_EQ(n.Title(), "diskpulse test notification");
  EXPECT_NE(n.Text().find("on nas"), std::string::npos);
  EXPECT_EQ(NotificationToJson(n)["event"], "test");
}

}  // namespace
}  // namespace dp

namespace dp {
namespace {

// What the owner reads on a phone: the headline as the title, then how sure
// and what to do, the statistics after them; the same in JSON and templates.
TEST(NotificationWords, HeadlineHowSureAndWhatToDoComeFirst) {
  Alert a = SampleAlert();
  a.words.headline = "sdh has been missing for 2 days";
  a.words.confidence = "Certain (seen by discovery, 2 days)";
  a.words.advice = "Check that the drive is seated, powered and cabled.";
  Notification n = MakeNotification(NotifyKind::kOpened, a, FakeClock().Now(), "nas");
  EXPECT_EQ(n.Title(), "[" + a.severity + "] sdh has been missing for 2 days");
  const std::string text = n.Text();
  EXPECT_EQ(text.rfind("sdh has been missing for 2 days\n"
                       "How sure: Certain (seen by discovery, 2 days)\n"
                       "What to do: Check that the drive is seated, powered and cabled.\n",
                       0),
            0u)
      << text;
  EXPECT_LT(text.find("What to do"), text.find("Details: " + a.summary)) << text;
  const auto j = NotificationToJson(n);
  EXPECT_EQ(j["headline"], a.words.headline);
  EXPECT_EQ(j["confidence"], a.words.confidence);
  EXPECT_EQ(j["advice"], a.words.advice);
  EXPECT_EQ(RenderTemplate("{{headline}} | {{confidence}} | {{advice}}", n, false),
            a.words.headline + " | " + a.words.confidence + " | " + a.words.advice);
}

}  // namespace
}  // namespace dp
