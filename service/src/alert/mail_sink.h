// MailSink: mails a notification, through one of two ways:
//  - a sendmail-compatible command (argv, no shell; e.g.
//    ["/usr/sbin/sendmail", "-t", "-oi"], msmtp, ssmtp) given an RFC 5322
//    message on stdin, through the CommandRunner seam; a non-zero exit or a
//    timeout is an error carrying the command's stderr;
//  - an SMTP server (config.smtp.host set) the sink talks to itself
//    (net/smtp_client.h), for hosts and images without a sendmail; errors
//    name the server, the step and its reply.
// Thread behaviour: see AlertSink; the runner must be thread-safe
// (PosixCommandRunner is).
#pragma once

#include <string>

#include "alert/alert_sink.h"
#include "base/command_runner.h"
#include "config/alerts_config.h"

namespace dp {

class MailSink final : public AlertSink {
 public:
  // host: this machine's name, said in EHLO unless smtp.helo_name is set.
  MailSink(MailConfig config, CommandRunner& runner, std::string host = "");

  const std::string& name() const override { return config_.name; }
  Status Send(const Notification& n) override;

  // The whole message (headers, blank line, body) sent for n.
  std::string Message(const Notification& n) const;

 private:
  Status SendSmtp(const Notification& n);
  Status SendCommand(const Notification& n);
  std::string Subject(const Notification& n) const;

  MailConfig config_;
  CommandRunner& runner_;
  std::string host_;
};

}  // namespace dp
