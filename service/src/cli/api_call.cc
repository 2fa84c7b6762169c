#include "cli/api_call.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace dp::cli {

const char* const kClientFlagsUsage =
    "  --url URL          the daemon (default $DISKPULSE_URL or http://127.0.0.1:8470)\n"
    "  --token TOKEN      the daemon's api_token (default $DISKPULSE_TOKEN)\n"
    "  --timeout SECONDS  give up on one request after this long (default 10)\n"
    "  --ca-file FILE     https: trust this certificate (PEM)\n"
    "  --insecure         https: do not verify the certificate\n";

FlagParse ParseClientFlag(const Args& args, std::size_t& i, DaemonClientOptions& options,
                          std::string_view command) {
  std::string a = args[i];
  std::string inline_value;
  bool has_inline = false;
  if (a.starts_with("--")) {
    if (auto eq = a.find('='); eq != std::string::npos) {
      inline_value = a.substr(eq + 1);
      a = a.substr(0, eq);
      has_inline = true;
    }
  }
  auto value = [&](std::string& out) {
    if (has_inline) {
      out = inline_value;
      return true;
    }
    if (i + 1 >= args.size()) {
      std::fprintf(stderr, "diskpulse %.*s: %s needs a value\n", static_cast<int>(command.size()),
                   command.data(), a.c_str());
      return false;
    }
    out = args[++i];
    return true;
  };
  if (a == "--url") return value(options.url) ? FlagParse::kConsumed : FlagParse::kError;
  if (a == "--token") return value(options.token) ? FlagParse::kConsumed : FlagParse::kError;
  if (a == "--ca-file") return value(options.ca_file) ? FlagParse::kConsumed : FlagParse::kError;
  if (a == "--insecure" && !has_inline) {
    options.insecure = true;
    return FlagParse::kConsumed;
  }
  if (a == "--timeout") {
    std::string v;
    if (!value(v)) return FlagParse::kError;
    char* end = nullptr;
    double s = std::strtod(v.c_str(), &end);
    if (v.empty() || !end || *end || s <= 0) {
      std::fprintf(stderr, "diskpulse %.*s: --timeout needs a number of seconds\n",
                   static_cast<int>(command.size()), command.data());
      return FlagParse::kError;
    }
    options.timeout = std::chrono::milliseconds(static_cast<long long>(s * 1000));
    return FlagParse::kConsumed;
  }
  return FlagParse::kNotMine;
}

std::string ApiAnswer::ErrorMessage() const {
  if (body.is_object()) {
    auto e = body.find("error");
    if (e != body.end() && e->is_object() && e->contains("message") &&
        (*e)["message"].is_string())
      return (*e)["message"].get<std::string>();
  }
  return "HTTP " + std::to_string(status);
}

Result<ApiAnswer> CallApi(const DaemonClient& client, std::string_view method,
                          std::string_view path, const nlohmann::json* body) {
  auto reply = client.Send(method, path, body ? body->dump() : std::string());
  if (!reply.ok()) return reply.status();
  ApiAnswer a;
  a.status = reply->status;
  a.body = nlohmann::json::parse(reply->body, nullptr, /*allow_exceptions=*/false);
  if (a.body.is_discarded()) a.body = nullptr;
  return a;
}

std::string TokenHint(int status) {
  if (status == 401)
    return "\n(give the daemon's api_token with --token TOKEN or the DISKPULSE_TOKEN "
           "environment variable)";
  if (status == 403)
    return "\n(set \"api_token\" in the daemon's configuration, reload it, and pass the token "
           "with --token or DISKPULSE_TOKEN)";
  return "";
}

std::string FormatWhen(const nlohmann::json& t) {
  if (!t.is_number() || t.get<long long>() <= 0) return "-";
  std::time_t tt = static_cast<std::time_t>(t.get<long long>());
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

std::string UrlEncode(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace dp::cli
