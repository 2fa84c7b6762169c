#include "cli/api_call.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "base/strings.h"

namespace dp::cli {

const char* const kClientFlagsUsage =
    "  --url URL          the daemon (default $DISKPULSE_URL or http://127.0.0.1:8470)\n"
    "  --token TOKEN      the daemon's api_token (default $DISKPULSE_TOKEN)\n"
    "  --timeout SECONDS  give up on one request after this long (default 10)\n"
    "  --ca-file FILE     https: trust this certificate (PEM)\n"
    "  --insecure         https: do not verify the certificate\n";

FlagParse TakeOption(const Args& args, std::size_t& i, std::string_view name,
                     std::string_view command, std::string& out) {
  const std::string& a = args[i];
  if (a.size() > name.size() && a.starts_with(name) && a[name.size()] == '=') {
    out = a.substr(name.size() + 1);
    return FlagParse::kConsumed;
  }
  if (a != name) return FlagParse::kNotMine;
  if (i + 1 >= args.size()) {
    std::fprintf(stderr, "diskpulse %.*s: %s needs a value\n", static_cast<int>(command.size()),
                 command.data(), a.c_str());
    return FlagParse::kError;
  }
  out = args[++i];
  return FlagParse::kConsumed;
}

FlagParse ParseClientFlag(const Args& args, std::size_t& i, DaemonClientOptions& options,
                          std::string_view command) {
  for (auto [name, field] : {std::pair<std::string_view, std::string*>{"--url", &options.url},
                             {"--token", &options.token},
                             {"--ca-file", &options.ca_file}}) {
    FlagParse p = TakeOption(args, i, name, command, *field);
    if (p != FlagParse::kNotMine) return p;
  }
  if (args[i] == "--insecure") {
    options.insecure = true;
    return FlagParse::kConsumed;
  }
  std::string v;
  switch (TakeOption(args, i, "--timeout", command, v)) {
    case FlagParse::kNotMine:
      break;
    case FlagParse::kError:
      return FlagParse::kError;
    case FlagParse::kConsumed: {
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
  }
  return FlagParse::kNotMine;
}

std::function<bool(const std::string&)> OneWord(std::string& into) {
  return [&into](const std::string& word) {
    if (!into.empty()) return false;
    into = word;
    return true;
  };
}

std::optional<int> ParseClientArgs(const Args& args, DaemonClientOptions& options,
                                   const ClientArgs& spec) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    FlagParse p = ParseClientFlag(args, i, options, spec.command);
    for (auto [name, field] : spec.values)
      if (p == FlagParse::kNotMine) p = TakeOption(args, i, name, spec.command, *field);
    if (p == FlagParse::kError) return 2;
    if (p == FlagParse::kConsumed) continue;
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      std::printf("%s%s", spec.usage, kClientFlagsUsage);
      return 0;
    }
    auto sw = std::find_if(spec.switches.begin(), spec.switches.end(),
                           [&](const auto& s) { return s.first == a; });
    if (sw != spec.switches.end()) {
      *sw->second = true;
      continue;
    }
    if (!a.starts_with("-") && spec.word && spec.word(a)) continue;
    std::fprintf(stderr, "diskpulse %.*s: unexpected argument '%s'\n%s",
                 static_cast<int>(spec.command.size()), spec.command.data(), a.c_str(), spec.usage);
    return 2;
  }
  return std::nullopt;
}

std::string ApiAnswer::ErrorMessage() const {
  if (body.is_object()) {
    auto e = body.find("error");
    if (e != body.end() && e->is_object() && e->contains("message") && (*e)["message"].is_string())
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

std::optional<DaemonClient> ConnectOrSay(const DaemonClientOptions& options,
                                         std::string_view command) {
  auto client = DaemonClient::Create(options);
  if (client.ok()) return std::move(*client);
  std::fprintf(stderr, "diskpulse %.*s: %s\n", static_cast<int>(command.size()), command.data(),
               client.status().message().c_str());
  return std::nullopt;
}

std::optional<ApiAnswer> CallOrSay(const DaemonClient& client, std::string_view command,
                                   std::string_view method, std::string_view path, int& exit_code,
                                   const nlohmann::json* body, std::string_view not_found_hint) {
  const int n = static_cast<int>(command.size());
  auto got = CallApi(client, method, path, body);
  if (!got.ok()) {
    std::fprintf(stderr, "diskpulse %.*s: %s\n", n, command.data(), got.status().message().c_str());
    exit_code = 2;
    return std::nullopt;
  }
  if (!got->ok()) {
    std::string hint = TokenHint(got->status);
    if (got->status == 404 && !not_found_hint.empty())
      hint = "\n(" + std::string(not_found_hint) + ")";
    std::fprintf(stderr, "diskpulse %.*s: the daemon refused: %s%s\n", n, command.data(),
                 got->ErrorMessage().c_str(), hint.c_str());
    exit_code = 1;
    return std::nullopt;
  }
  exit_code = 0;
  return std::move(*got);
}

bool DriveGivenOrSay(const std::string& drive, std::string_view command, const char* usage) {
  if (!drive.empty()) return true;
  std::fprintf(stderr, "diskpulse %.*s: which drive? (see 'diskpulse status')\n%s",
               static_cast<int>(command.size()), command.data(), usage);
  return false;
}

std::string FormatWhen(const nlohmann::json& t) {
  if (!t.is_number() || t.get<long long>() <= 0) return "-";
  return FormatUtcTime(static_cast<std::time_t>(t.get<long long>()), "%Y-%m-%d %H:%M UTC");
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

bool WriteWholeOrSay(const std::string& file, std::string_view bytes, std::string_view command) {
  const std::string tmp = file + ".part";
  const std::string cmd(command);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::fprintf(stderr, "diskpulse %s: cannot write %s: %s\n", cmd.c_str(), tmp.c_str(),
                   std::strerror(errno));
      std::filesystem::remove(tmp);
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    std::fprintf(stderr, "diskpulse %s: cannot put the file at %s: %s\n", cmd.c_str(),
                 file.c_str(), ec.message().c_str());
    std::filesystem::remove(tmp);
    return false;
  }
  return true;
}

}  // namespace dp::cli
