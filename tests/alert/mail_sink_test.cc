#include "alert/mail_sink.h"

#include <gtest/gtest.h>

#include "alert/alert_dispatcher.h"
#include "base/fake_clock.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using namespace std::chrono_literals;

Notification Opened() {
  Alert a;
  a.id = 9;
  a.drive_id = "wwn-1";
  a.condition = "smart:pending_sectors";
  a.severity = "critical";
  a.summary = "sda: 8 new pending sectors (0 -> 8)";
  a.evidence_json = R"({"drive_name":"sda"})";
  return MakeNotification(NotifyKind::kOpened, a, FakeClock().Now(), "nas");
}

MailConfig Config(std::vector<std::string> command) {
  MailConfig c;
  c.name = "ops";
  c.command = std::move(command);
  c.to = {"root@localhost", "ops@example.org"};
  c.from = "diskpulse@nas";
  c.timeout_seconds = 5;
  return c;
}

TEST(MailSink, WorkingCommandGetsTheMessageOnStdin) {
  testing::TempDir dir;
  std::string out = dir.Path("mail.txt");
  // A stand-in for sendmail: writes its stdin and argv to files.
  std::string script =
      dir.Write("fake-sendmail.sh", "#!/bin/sh\necho \"$@\" > \"$0.args\"\ncat > " + out + "\n");
  ASSERT_EQ(chmod(script.c_str(), 0755), 0);
  PosixCommandRunner runner;
  MailSink sink(Config({script, "-t", "-oi"}), runner);
  Status st = sink.Send(Opened());
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::string msg = testing::ReadFile(out);
  EXPECT_NE(msg.find("To: root@localhost, ops@example.org\n"), std::string::npos) << msg;
  EXPECT_NE(msg.find("From: diskpulse@nas\n"), std::string::npos);
  EXPECT_NE(msg.find("Subject: [diskpulse] [critical] sda: 8 new pending sectors (0 -> 8)\n"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("Date: Thu, 01 Jan 2026 00:00:00 +0000\n"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\n\nsda: 8 new pending sectors"), std::string::npos);
  EXPECT_EQ(testing::ReadFile(script + ".args"), "-t -oi\n");
}

TEST(MailSink, FailingCommandIsAnErrorWithItsStatus) {
  PosixCommandRunner runner;
  MailSink sink(Config({"/bin/false"}), runner);
  Status st = sink.Send(Opened());
  EXPECT_EQ(st.code(), StatusCode::kUnavailable);
  EXPECT_NE(st.message().find("exited with status 1"), std::string::npos) << st.ToString();
  MailSink missing(Config({"/nonexistent/sendmail", "-t"}), runner);
  st = missing.Send(Opened());
  EXPECT_EQ(st.code(), StatusCode::kNotFound) << st.ToString();
}

TEST(MailSink, HungCommandTimesOutAndNeverBlocksTheDispatcherCaller) {
  PosixCommandRunner runner;
  MailConfig c = Config({"sleep", "30"});
  c.timeout_seconds = 1;
  AlertDispatcher d;
  SinkPolicy p;
  p.max_attempts = 1;
  d.AddSink(std::make_unique<MailSink>(c, runner), p);
  d.Start();
  auto t0 = std::chrono::steady_clock::now();
  d.Submit(Opened());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 100ms);
  ASSERT_TRUE(d.WaitIdle(10s));
  EXPECT_EQ(d.Stats()[0].failed, 1u);
  EXPECT_NE(d.Stats()[0].last_error.find("timeout"), std::string::npos) << d.Stats()[0].last_error;
}

}  // namespace
}  // namespace dp
