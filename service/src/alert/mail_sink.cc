#include "alert/mail_sink.h"

#include <ctime>

#include "base/log.h"
#include "base/strings.h"
#include "net/smtp_client.h"

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

MailSink::MailSink(MailConfig config, CommandRunner& runner, std::string host)
    : config_(std::move(config)), runner_(runner), host_(std::move(host)) {
  if (!config_.smtp.host.empty() && config_.smtp.security != "none" && !config_.smtp.verify_tls)
    LogWarning("alert mail " + config_.name +
               ": TLS certificate verification is OFF (smtp.verify_tls: false); anyone on the "
               "path can read these mails and the password");
}

std::string MailSink::Subject(const Notification& n) const {
  std::string subject = config_.subject_prefix.empty() ? "" : config_.subject_prefix + " ";
  return OneLine(subject + n.Title());
}

std::string MailSink::Message(const Notification& n) const {
  std::string to;
  for (const auto& a : config_.to) to += (to.empty() ? "" : ", ") + OneLine(a);
  std::string m;
  m += "From: " + OneLine(config_.from) + "\n";
  m += "To: " + to + "\n";
  m += "Subject: " + Subject(n) + "\n";
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
  return config_.smtp.host.empty() ? SendCommand(n) : SendSmtp(n);
}

Status MailSink::SendSmtp(const Notification& n) {
  const SmtpConfig& c = config_.smtp;
  net::SmtpOptions o;
  o.host = c.host;
  o.port = c.port;
  o.security = c.security == "tls"    ? net::SmtpSecurity::kTls
               : c.security == "none" ? net::SmtpSecurity::kNone
                                      : net::SmtpSecurity::kStartTls;
  o.username = c.username;
  o.password = c.password;
  o.verify_tls = c.verify_tls;
  o.ca_file = c.ca_file;
  o.helo_name = !c.helo_name.empty() ? c.helo_name : host_.empty() ? "localhost" : host_;
  o.timeout = std::chrono::seconds(config_.timeout_seconds);
  net::SmtpMessage m;
  m.from = config_.from;
  m.to = config_.to;
  std::string to;
  for (const auto& a : config_.to) to += (to.empty() ? "" : ", ") + OneLine(a);
  m.headers = {{"From", OneLine(config_.from)},
               {"To", to},
               {"Subject", Subject(n)},
               {"Date", MailDate(n.at)},
               {"X-Diskpulse-Event", std::string(NotifyKindName(n.kind))}};
  if (n.alert.id) m.headers.emplace_back("X-Diskpulse-Alert", std::to_string(n.alert.id));
  m.body = n.Text();
  Status st = net::SendSmtp(o, m);
  if (st.ok()) return st;
  return Status(st.code(), "mail " + config_.name + " (smtp " + c.host + ":" +
                               std::to_string(c.port) + "): " + st.message());
}

Status MailSink::SendCommand(const Notification& n) {
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
