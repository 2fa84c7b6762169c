// MailSink: hands a notification to a sendmail-compatible command (argv, no
// shell; e.g. ["/usr/sbin/sendmail", "-t", "-oi"], msmtp, ssmtp) as an RFC
// 5322 message on stdin, with To/From/Subject headers, through the
// CommandRunner seam. A non-zero exit or a timeout is an error carrying the
// command's stderr. Thread behaviour: see AlertSink; the runner must be
// thread-safe (PosixCommandRunner is).
#pragma once

#include <string>

#include "alert/alert_sink.h"
#include "base/command_runner.h"
#include "config/alerts_config.h"

namespace dp {

class MailSink final : public AlertSink {
 public:
  MailSink(MailConfig config, CommandRunner& runner)
      : config_(std::move(config)), runner_(runner) {}

  const std::string& name() const override { return config_.name; }
  Status Send(const Notification& n) override;

  // The whole message (headers, blank line, body) sent for n.
  std::string Message(const Notification& n) const;

 private:
  MailConfig config_;
  CommandRunner& runner_;
};

}  // namespace dp
