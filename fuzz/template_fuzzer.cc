// Webhook body/header templates and the mail message, rendered from a
// notification whose fields come from the input too (fields split at 0x1f:
// template, summary, drive name, condition, severity, evidence JSON, host).
// Properties: a placeholder rendered JSON-escaped inside a JSON string keeps
// the document valid and carries the text unchanged; no field can add a
// header line to the mail message.
#include <nlohmann/json.hpp>

#include "alert/mail_sink.h"
#include "alert/notification.h"
#include "base/command_runner.h"
#include "fuzz/fuzz_input.h"

namespace {

bool ValidUtf8(const std::string& s) {
  try {
    (void)nlohmann::json(s).dump();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

int HeaderLines(const std::string& message) {
  auto end = message.find("\n\n");
  int n = 0;
  for (std::size_t i = 0; i < std::min(end, message.size()); ++i) n += message[i] == '\n';
  return n;
}

// The mail sink only formats here; nothing is ever run.
class NoRunner final : public dp::CommandRunner {
 public:
  dp::Result<dp::CommandOutput> Run(const dp::CommandSpec&) override {
    return dp::Unavailable("not in a fuzzer");
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto f = dp::fuzz::Fields(dp::fuzz::AsText(data, size), 7);
  dp::Alert alert;
  alert.id = 7;
  alert.drive_id = "wwn-0x5000c500a1b2c3d4";
  alert.summary = f[1];
  alert.condition = f[3];
  alert.severity = f[4];
  alert.evidence_json = f[5];
  auto at = dp::FromUnixSeconds(1'767'225'600);
  dp::Notification n = dp::MakeNotification(dp::NotifyKind::kOpened, alert, at, f[6]);
  if (!f[2].empty()) n.drive_name = f[2];

  dp::RenderTemplate(f[0], n, false);
  dp::RenderTemplate(f[0], n, true);
  dp::NotificationToJson(n);

  if (ValidUtf8(alert.summary)) {
    std::string doc = dp::RenderTemplate(R"({"text": "{{summary}}"})", n, true);
    auto j = nlohmann::json::parse(doc, nullptr, false);
    DP_FUZZ_CHECK(!j.is_discarded());
    DP_FUZZ_CHECK(j["text"] == n.alert.summary);
  }

  NoRunner runner;
  dp::MailConfig mail;
  mail.to = {"ops@example.org"};
  dp::MailSink sink(mail, runner);
  dp::Alert bare;
  bare.id = 7;
  dp::Notification plain = dp::MakeNotification(dp::NotifyKind::kOpened, bare, at);
  DP_FUZZ_CHECK(HeaderLines(sink.Message(n)) == HeaderLines(sink.Message(plain)));
  return 0;
}
