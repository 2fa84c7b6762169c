#include "alert/mail_sink.h"

#include <ctime>

#include "base/strings.h"

namespace dp {
namespace {

std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\r' || c == '\n') c = ' ';
  return s;
}

// RFC 5322 date, UTC: "Thu, 01 Jan 2026 00:00:00 +0000".
std::string MailDate(SysTime t) {
  return FormatUtcTime(static_cast<std::time_t>(ToUnixSeconds(t)), "%a, %d %b %Y %H:%M:%S +0000");
}

}  // namespace

std::string MailSink::Message(const Notification& n) const {
  std::string to;
  for (const auto& a : config_.to) to += (to.empty() ? "" : ", ") + OneLine(a);
  std::string subject = config_.subject_prefix.empty() ? "" : config_.subject_prefix + " ";
  subject += n.Title();
  std::string m;
  m += "From: " + OneLine(config_.from) + "\n";
  m += "To: " + to + "\n";
  m += "Subject: " + OneLine(subject) + "\n";
  m += "Date: " + MailDate(n.at) + "\n";
  m += "MIME-Version: 1.0\n";
  m += "Content-Type: text/plain; charset=utf-8\n";
  m += "Content-Transfer-Encoding: 8bit\n";
  m += "X-Diskpulse-Event: " + std::string(NotifyKindName(n.kind)) + "\n";
  if (n.alert.id) m += "X-Diskpulse-Alert: " + std::to_string(n.alert.id) + "\n";
  m += "\n";
  std::string body = n.Text();  // no line is a lone "."; -oi makes that moot anyway
  m += body + "\n";
  return m;
}

Status MailSink::Send(const Notification& n) {
  CommandSpec spec;
  spec.argv = config_.command;
  spec.timeout = std::chrono::seconds(config_.timeout_seconds);
  spec.max_output_bytes = 64 * 1024;
  spec.stdin_data = Message(n);
  const std::string where = "mail " + config_.name + " (" + FormatArgv(config_.command) + ")";
  auto out = runner_.Run(spec);
  if (!out.ok()) return Status(out.status().code(), where + ": " + out.status().message());
  if (out->exit_code != 0) {
    std::string err = OneLine(out->stderr_text.substr(0, 300));
    std::string how = out->term_signal ? "was killed by signal " + std::to_string(out->term_signal)
                                       : "exited with status " + std::to_string(out->exit_code);
    return Unavailable(where + ": " + how + (err.empty() ? "" : ": " + err));
  }
  return Status::Ok();
}

}  // namespace dp
