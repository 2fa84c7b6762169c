#include "net/smtp_client.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <set>

#include "base/log.h"
#include "net/beast_names.h"
#include "net/http_client.h"
#include "net/tls_client.h"

namespace dp::net {
namespace {

using Deadline = std::chrono::steady_clock::time_point;

constexpr std::size_t kMaxReplyLine = 4096;
constexpr int kMaxReplyLines = 100;

std::string Base64(std::string_view in) {
  std::string out(4 * ((in.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(in.data()),
                          static_cast<int>(in.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

bool IsAscii(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

// A header value that is not ASCII goes as one or more UTF-8 encoded words;
// each holds whole characters so that no reader sees half of one.
std::string EncodeHeaderValue(const std::string& v) {
  if (IsAscii(v)) return v;
  std::string out;
  std::size_t i = 0;
  while (i < v.size()) {
    std::size_t end = std::min(v.size(), i + 45);
    while (end < v.size() && (static_cast<unsigned char>(v[end]) & 0xC0) == 0x80) --end;
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + Base64(std::string_view(v).substr(i, end - i)) + "?=";
    i = end;
  }
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string cur;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      lines.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(std::move(cur));
  return lines;
}

// RFC 2045 quoted-printable of one line, soft-broken below 76 characters.
std::string QuotedPrintable(const std::string& line) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  std::size_t width = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    bool last = i + 1 == line.size();
    std::string piece;
    if ((c >= 33 && c <= 126 && c != '=') || ((c == ' ' || c == '\t') && !last)) {
      piece = std::string(1, static_cast<char>(c));
    } else {
      piece = {'=', kHex[c >> 4], kHex[c & 15]};
    }
    if (width + piece.size() > 75) {
      out += "=\r\n";
      width = 0;
    }
    out += piece;
    width += piece.size();
  }
  return out;
}

std::string MessageId(const std::string& from) {
  unsigned char r[12];
  std::string id;
  if (RAND_bytes(r, sizeof r) == 1) {
    static const char* kHex = "0123456789abcdef";
    for (unsigned char c : r) id += {kHex[c >> 4], kHex[c & 15]};
  } else {
    id = std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  }
  std::string addr = BareAddress(from);
  auto at = addr.rfind('@');
  return "<" + id + "@" + (at == std::string::npos ? "diskpulse" : addr.substr(at + 1)) + ">";
}

struct Reply {
  int code = 0;
  std::vector<std::string> lines;  // text after "NNN-" / "NNN "
  std::string Text() const {
    std::string t = std::to_string(code);
    for (const auto& l : lines) t += " " + l;
    return t;
  }
};

// One SMTP session. Before TLS the bytes go through the TLS stream's lower
// layer; after the handshake through the TLS stream itself, so STARTTLS
// upgrades the same connection.
class Session {
 public:
  Session(const SmtpOptions& o, const SmtpMessage& m)
      : o_(o),
        m_(m),
        deadline_(std::chrono::steady_clock::now() + o.timeout),
        ctx_(ssl::context::tls_client),
        stream_(ioc_, ctx_) {}

  Status Run() {
    if (!o_.username.empty() && o_.security == SmtpSecurity::kNone)
      return InvalidArgument("refusing to send the password without TLS (security \"none\")");
    DP_RETURN_IF_ERROR(SetUpTls());
    DP_RETURN_IF_ERROR(Connect());
    if (o_.security == SmtpSecurity::kTls) DP_RETURN_IF_ERROR(Handshake());
    DP_RETURN_IF_ERROR(Expect("greeting", 220));
    DP_RETURN_IF_ERROR(Ehlo());
    if (o_.security == SmtpSecurity::kStartTls) {
      if (!caps_.count("STARTTLS"))
        return Unavailable("server offers no STARTTLS; the connection would stay in clear");
      DP_RETURN_IF_ERROR(Command("STARTTLS", "STARTTLS", 220));
      // Anything the server sent past its answer was sent in clear and
      // must not be taken as part of the protected session.
      if (!in_.empty()) return Unavailable("STARTTLS: server sent data before the handshake");
      DP_RETURN_IF_ERROR(Handshake());
      DP_RETURN_IF_ERROR(Ehlo());
    }
    if (!o_.username.empty()) DP_RETURN_IF_ERROR(Auth());
    DP_RETURN_IF_ERROR(Envelope());
    DP_RETURN_IF_ERROR(Command("DATA", "DATA", 354));
    const bool eight_bit = caps_.count("8BITMIME") > 0;
    DP_RETURN_IF_ERROR(Write("message", DotStuff(ComposeSmtpMessage(m_, eight_bit))));
    DP_RETURN_IF_ERROR(Expect("message", 250));
    // Delivered: a QUIT that goes wrong changes nothing.
    (void)Write("QUIT", "QUIT\r\n");
    (void)Read("QUIT");
    if (tls_) {
      beast::get_lowest_layer(stream_).expires_after(std::chrono::milliseconds(500));
      Wait([&](auto h) { stream_.async_shutdown(std::move(h)); });
    }
    return Status::Ok();
  }

 private:
  template <typename Start>
  error_code Wait(Start start) {
    error_code result = asio::error::would_block;
    start([&result](error_code ec, auto&&...) { result = ec; });
    ioc_.restart();
    ioc_.run();
    return result;
  }

  Status Failed(const std::string& step, const error_code& e) const {
    if (e == beast::error::timeout)
      return Timeout("no reply within " + FormatSeconds(o_.timeout) + " s (" + step + ")");
    if (e == asio::error::eof) return Unavailable(step + ": the server closed the connection");
    return Unavailable(step + ": " + DescribeError(e));
  }

  Status SetUpTls() {
    if (o_.security == SmtpSecurity::kNone) return Status::Ok();
    DP_RETURN_IF_ERROR(SetUpClientTls(ctx_, o_.ca_file, o_.verify_tls));
    // The stream took the context's verify mode when it was made, before
    // the context was set up: it needs its own.
    stream_.set_verify_mode(o_.verify_tls ? ssl::verify_peer : ssl::verify_none);
    return ExpectServerName(stream_, o_.host, o_.verify_tls);
  }

  Status Connect() {
    tcp::resolver::results_type endpoints;
    error_code ec;
    if (!ResolveBefore(ioc_, o_.host, o_.port, deadline_, endpoints, ec))
      return Failed("resolving " + o_.host, beast::error::timeout);
    if (ec) return Unavailable("cannot resolve " + o_.host + ": " + DescribeError(ec));
    auto& tcp_stream = beast::get_lowest_layer(stream_);
    tcp_stream.expires_at(deadline_);
    error_code e = Wait([&](auto h) { tcp_stream.async_connect(endpoints, std::move(h)); });
    if (e == asio::error::connection_refused) return Unavailable(kConnectionRefused);
    if (e && e != beast::error::timeout) return Unavailable("cannot connect: " + DescribeError(e));
    if (e) return Failed("connect", e);
    return Status::Ok();
  }

  Status Handshake() {
    beast::get_lowest_layer(stream_).expires_at(deadline_);
    error_code e =
        Wait([&](auto h) { stream_.async_handshake(ssl::stream_base::client, std::move(h)); });
    if (e == beast::error::timeout) return Failed("TLS handshake", e);
    if (e) return Unavailable("TLS handshake failed: " + DescribeError(e));
    tls_ = true;
    return Status::Ok();
  }

  Status Write(const std::string& step, const std::string& data) {
    beast::get_lowest_layer(stream_).expires_at(deadline_);
    error_code e = Wait([&](auto h) {
      if (tls_)
        asio::async_write(stream_, asio::buffer(data), std::move(h));
      else
        asio::async_write(beast::get_lowest_layer(stream_), asio::buffer(data), std::move(h));
    });
    return e ? Failed(step, e) : Status::Ok();
  }

  Result<std::string> ReadLine(const std::string& step) {
    beast::get_lowest_layer(stream_).expires_at(deadline_);
    auto buf = asio::dynamic_buffer(in_, kMaxReplyLine);
    std::size_t n = 0;
    error_code e = Wait([&](auto h) {
      auto done = [&n, h = std::move(h)](error_code ec, std::size_t got) mutable {
        n = got;
        h(ec);
      };
      if (tls_)
        asio::async_read_until(stream_, buf, "\r\n", std::move(done));
      else
        asio::async_read_until(beast::get_lowest_layer(stream_), buf, "\r\n", std::move(done));
    });
    if (e == asio::error::not_found) return Unavailable(step + ": reply line too long");
    if (e) return Failed(step, e);
    std::string line = in_.substr(0, n - 2);
    in_.erase(0, n);
    return line;
  }

  // A reply: "NNN-text" lines, then "NNN text".
  Result<Reply> Read(const std::string& step) {
    Reply r;
    for (int i = 0; i < kMaxReplyLines; ++i) {
      DP_ASSIGN_OR_RETURN(std::string line, ReadLine(step));
      if (line.size() < 3 || !std::isdigit(static_cast<unsigned char>(line[0])) ||
          !std::isdigit(static_cast<unsigned char>(line[1])) ||
          !std::isdigit(static_cast<unsigned char>(line[2])) ||
          (line.size() > 3 && line[3] != ' ' && line[3] != '-'))
        return Unavailable(step + ": not an SMTP reply: " + Printable(line));
      int code = std::stoi(line.substr(0, 3));
      if (r.code && code != r.code)
        return Unavailable(step + ": reply codes differ within one reply: " + Printable(line));
      r.code = code;
      r.lines.push_back(line.size() > 4 ? line.substr(4) : "");
      if (line.size() == 3 || line[3] == ' ') return r;
    }
    return Unavailable(step + ": reply longer than " + std::to_string(kMaxReplyLines) + " lines");
  }

  // What the server said, made safe to show: one line, bounded, and without
  // anything that is the password or its encodings should a server echo it.
  std::string Printable(std::string text) const {
    for (char& c : text)
      if (static_cast<unsigned char>(c) < 32) c = ' ';
    if (!o_.password.empty()) {
      for (const std::string& secret :
           {o_.password, Base64(o_.password), Base64('\0' + o_.username + '\0' + o_.password)}) {
        for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret))
          text.replace(at, secret.size(), "***");
      }
    }
    if (text.size() > 300) text = text.substr(0, 300) + "...";
    return text;
  }

  Status Expect(const std::string& step, int code, Reply* out = nullptr) {
    DP_ASSIGN_OR_RETURN(Reply r, Read(step));
    if (r.code != code) {
      std::string what = step + ": " + Printable(r.Text());
      return r.code == 535 || r.code == 534 || r.code == 530 ? PermissionDenied(what)
                                                             : Unavailable(what);
    }
    if (out) *out = std::move(r);
    return Status::Ok();
  }

  Status Command(const std::string& step, const std::string& line, int code,
                 Reply* out = nullptr) {
    DP_RETURN_IF_ERROR(Write(step, line + "\r\n"));
    return Expect(step, code, out);
  }

  Status Ehlo() {
    Reply r;
    const std::string me = o_.helo_name.empty() ? "localhost" : o_.helo_name;
    DP_RETURN_IF_ERROR(Command("EHLO", "EHLO " + me, 250, &r));
    caps_.clear();
    auth_.clear();
    for (std::size_t i = 1; i < r.lines.size(); ++i) {
      std::string upper;
      for (char c : r.lines[i]) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      std::string word = upper.substr(0, upper.find(' '));
      caps_.insert(word);
      if (word == "AUTH" && upper.size() > 5) {
        std::string rest = upper.substr(5);
        for (std::size_t at = 0; at < rest.size();) {
          std::size_t end = rest.find(' ', at);
          if (end == std::string::npos) end = rest.size();
          if (end > at) auth_.insert(rest.substr(at, end - at));
          at = end + 1;
        }
      }
    }
    return Status::Ok();
  }

  Status Auth() {
    if (!tls_) return InvalidArgument("refusing to send the password without TLS");
    if (auth_.count("PLAIN")) {
      std::string token = Base64(std::string(1, '\0') + o_.username + '\0' + o_.password);
      DP_RETURN_IF_ERROR(Write("AUTH PLAIN", "AUTH PLAIN " + token + "\r\n"));
      return Expect("AUTH PLAIN", 235);
    }
    if (auth_.count("LOGIN")) {
      DP_RETURN_IF_ERROR(Command("AUTH LOGIN", "AUTH LOGIN", 334));
      DP_RETURN_IF_ERROR(Command("AUTH LOGIN (username)", Base64(o_.username), 334));
      DP_RETURN_IF_ERROR(Write("AUTH LOGIN (password)", Base64(o_.password) + "\r\n"));
      return Expect("AUTH LOGIN (password)", 235);
    }
    std::string offered;
    for (const auto& a : auth_) offered += (offered.empty() ? "" : " ") + a;
    return Unavailable("server offers no AUTH PLAIN or LOGIN" +
                       (offered.empty() ? std::string(" (no AUTH at all)")
                                        : " (offers " + offered + ")"));
  }

  Status Envelope() {
    const std::string from = BareAddress(m_.from);
    std::string mail = "MAIL FROM:<" + from + ">";
    if (caps_.count("8BITMIME") && !IsAscii(m_.body)) mail += " BODY=8BITMIME";
    DP_RETURN_IF_ERROR(Command("MAIL FROM <" + from + ">", mail, 250));
    int accepted = 0;
    std::string refused;
    for (const auto& to : m_.to) {
      const std::string a = BareAddress(to);
      DP_RETURN_IF_ERROR(Write("RCPT TO <" + a + ">", "RCPT TO:<" + a + ">\r\n"));
      DP_ASSIGN_OR_RETURN(Reply r, Read("RCPT TO <" + a + ">"));
      if (r.code == 250 || r.code == 251) {
        ++accepted;
      } else {
        refused += (refused.empty() ? "" : "; ") + ("RCPT TO <" + a + ">: " + Printable(r.Text()));
      }
    }
    // Some recipients taken: they get it, and a retry would send it to them
    // again; the refused ones are a configuration matter the log shows.
    if (accepted == 0) return Unavailable(refused);
    if (!refused.empty()) LogWarning("smtp " + o_.host + ": sent to the others only; " + refused);
    return Status::Ok();
  }

  const SmtpOptions& o_;
  const SmtpMessage& m_;
  const Deadline deadline_;
  asio::io_context ioc_;
  ssl::context ctx_;
  beast::ssl_stream<beast::tcp_stream> stream_;
  bool tls_ = false;
  std::string in_;
  std::set<std::string> caps_, auth_;
};

}  // namespace

std::string BareAddress(const std::string& mailbox) {
  auto lt = mailbox.rfind('<');
  auto gt = mailbox.rfind('>');
  if (lt != std::string::npos && gt != std::string::npos && gt > lt)
    return mailbox.substr(lt + 1, gt - lt - 1);
  std::string s = mailbox;
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string ComposeSmtpMessage(const SmtpMessage& m, bool eight_bit) {
  std::string out;
  bool has_id = false;
  for (const auto& [k, v] : m.headers) {
    has_id = has_id || k == "Message-ID";
    out += k + ": " + EncodeHeaderValue(v) + "\r\n";
  }
  if (!has_id) out += "Message-ID: " + MessageId(m.from) + "\r\n";
  std::vector<std::string> lines = Lines(m.body);
  bool long_line = false;
  for (const auto& l : lines) long_line = long_line || l.size() > 998;
  std::string encoding =
      IsAscii(m.body) && !long_line ? "7bit" : eight_bit && !long_line ? "8bit" : "quoted-printable";
  out += "MIME-Version: 1.0\r\n";
  out += "Content-Type: text/plain; charset=utf-8\r\n";
  out += "Content-Transfer-Encoding: " + encoding + "\r\n\r\n";
  for (const auto& l : lines) out += (encoding == "quoted-printable" ? QuotedPrintable(l) : l) + "\r\n";
  return out;
}

std::string DotStuff(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 8);
  bool line_start = true;
  for (char c : text) {
    if (line_start && c == '.') out += '.';
    out += c;
    line_start = c == '\n';
  }
  if (!out.empty() && out.back() != '\n') out += "\r\n";
  return out + ".\r\n";
}

Status SendSmtp(const SmtpOptions& options, const SmtpMessage& message) {
  try {
    return Session(options, message).Run();
  } catch (const std::exception& e) {
    // Boost may throw (e.g. resource exhaustion); nothing crosses the module.
    return Unavailable(e.what());
  }
}

}  // namespace dp::net
