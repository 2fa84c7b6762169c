// The one blocking SMTP client, for the mail sink on hosts without a
// sendmail: one message per connection to a submission server (a provider's,
// Gmail, Fastmail, an own relay). Implicit TLS (port 465) or STARTTLS (587),
// both through OpenSSL with peer and host name verification against the
// system's CAs or a given CA file; AUTH PLAIN or LOGIN, whichever the server
// offers, and never over a connection without TLS; one deadline for the
// whole exchange, because blocking Asio calls have none. The message body is
// sent as 7bit, 8bit (when the server says 8BITMIME) or quoted-printable.
// Thread-safe: each call has its own io_context.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace dp::net {

enum class SmtpSecurity { kStartTls, kTls, kNone };

struct SmtpOptions {
  std::string host;
  int port = 587;
  SmtpSecurity security = SmtpSecurity::kStartTls;
  std::string username;  // "" = no AUTH
  std::string password;
  bool verify_tls = true;   // check the certificate and its name
  std::string ca_file;      // trust this PEM instead of the system's
  std::string helo_name;    // our name in EHLO; "" = "localhost"
  std::chrono::milliseconds timeout{30'000};  // the whole exchange
};

struct SmtpMessage {
  std::string from;              // envelope sender, a bare address
  std::vector<std::string> to;   // envelope recipients, bare addresses
  // Header lines in order, without MIME ones (added here): {"Subject", "..."}.
  // Values that are not ASCII are encoded (RFC 2047) here.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // UTF-8 text, any line endings
};

// Delivers message. Errors name the step and the server's reply (never the
// password); callers say which server:
//   Timeout "no reply within N s (STEP)";
//   PermissionDenied for a refused login (535 and the like);
//   Unavailable for anything else ("cannot connect: ...", "TLS handshake
//     failed: certificate verify failed", "RCPT TO <a@b>: 550 ...",
//     "server offers no STARTTLS");
//   InvalidArgument for a CA file that cannot be loaded, or a password that
//     would go out without TLS.
Status SendSmtp(const SmtpOptions& options, const SmtpMessage& message);

// The message as it goes after DATA, before dot-stuffing: CRLF line ends,
// MIME headers added. eight_bit: the server takes 8BITMIME.
std::string ComposeSmtpMessage(const SmtpMessage& message, bool eight_bit);

// "..\r\n" for lines that start with '.', as DATA needs, and the ending
// "\r\n.\r\n". Input has CRLF line ends.
std::string DotStuff(const std::string& crlf_text);

// The address inside "Name <a@b>", or the text itself.
std::string BareAddress(const std::string& mailbox);

}  // namespace dp::net
