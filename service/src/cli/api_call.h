// Helpers shared by the CLI commands that talk to diskpulsed's API (`run`,
// `alerts`): the common connection flags and one call whose answer keeps its
// HTTP status, so commands tell "daemon unreachable" (exit 2) from "the
// daemon said no" (exit 1). Pure apart from the network call.
#pragma once

#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.h"
#include "cli/commands.h"
#include "cli/daemon_client.h"

namespace dp::cli {

enum class FlagParse { kNotMine, kConsumed, kError };

// Consumes args[i] (and its value, advancing i) when it is one of
// --url URL, --token TOKEN, --timeout SECONDS, --ca-file FILE, --insecure
// (also --name=value). On error prints "diskpulse COMMAND: ..." to stderr.
FlagParse ParseClientFlag(const Args& args, std::size_t& i, DaemonClientOptions& options,
                          std::string_view command);

// Consumes args[i] when it is the option `name` ("--test") with its value,
// given as "--test VALUE" or "--test=VALUE", into `out` (advancing i past a
// separate value). kError (printed as "diskpulse COMMAND: --test needs a
// value") when the value is missing; kNotMine for any other argument.
FlagParse TakeOption(const Args& args, std::size_t& i, std::string_view name,
                     std::string_view command, std::string& out);

// A client command's arguments, described once: the client flags
// (ParseClientFlag) are always taken; then the command's options with a value
// ({"--test", &test}, as TakeOption), its switches ({"--json", &json}), and
// what a bare word means (`word` returns false when none is expected there).
struct ClientArgs {
  std::string_view command;  // "run", as in "diskpulse run: ..."
  const char* usage;         // printed after an error and, with the client flags, for --help
  std::initializer_list<std::pair<std::string_view, std::string*>> values = {};
  std::initializer_list<std::pair<std::string_view, bool*>> switches = {};
  std::function<bool(const std::string&)> word = nullptr;
};

// A `word` for a command that takes one bare word (the drive): the first
// fills `into`, a second is unexpected.
std::function<bool(const std::string&)> OneWord(std::string& into);

// Walks `args` by `spec`. nullopt when the command should go on; otherwise
// its exit code, the reason already printed: 0 after --help, 2 after
// "diskpulse COMMAND: unexpected argument 'X'" and the usage.
std::optional<int> ParseClientArgs(const Args& args, DaemonClientOptions& options,
                                   const ClientArgs& spec);

// Usage lines for the flags above.
extern const char* const kClientFlagsUsage;

struct ApiAnswer {
  int status = 0;
  nlohmann::json body;  // null when the body is not JSON
  bool ok() const { return status >= 200 && status < 300; }
  // The daemon's error message ({"error":{"message"}}), else "HTTP N".
  std::string ErrorMessage() const;
};

// One request. Errors only when the daemon cannot be reached or does not
// answer (Unavailable/Timeout from DaemonClient::Send).
Result<ApiAnswer> CallApi(const DaemonClient& client, std::string_view method,
                          std::string_view path, const nlohmann::json* body = nullptr);

// A hint for 401/403 answers: how to give the token.
std::string TokenHint(int status);

// The commands' one way to start and to fail. `command` is what follows
// "diskpulse " in messages ("run", "alerts ack").
//
// A client for the daemon, or nullopt after printing why not (bad --url,
// TLS set-up) as "diskpulse COMMAND: ..." (the caller exits 2).
std::optional<DaemonClient> ConnectOrSay(const DaemonClientOptions& options,
                                         std::string_view command);

// One call whose failure is printed: the daemon unreachable ("diskpulse
// COMMAND: cannot reach diskpulsed at ...", exit 2) or refusing ("diskpulse
// COMMAND: the daemon refused: MESSAGE" with the token hint for 401/403 and
// `not_found_hint` for 404, exit 1). `exit_code` gets that code; the answer
// comes back only when it was a success.
std::optional<ApiAnswer> CallOrSay(const DaemonClient& client, std::string_view command,
                                   std::string_view method, std::string_view path, int& exit_code,
                                   const nlohmann::json* body = nullptr,
                                   std::string_view not_found_hint = "");

// "diskpulse COMMAND: which drive? (see 'diskpulse status')" and the usage,
// when `drive` is empty; true when a drive was given.
bool DriveGivenOrSay(const std::string& drive, std::string_view command, const char* usage);

// "2026-01-04 03:12 UTC" from unix seconds ("-" for 0 or null).
std::string FormatWhen(const nlohmann::json& unix_seconds);

// Percent-encodes a query or path component.
std::string UrlEncode(std::string_view text);

// Writes `bytes` to `file` whole or not at all: beside it first, then
// renamed, so a reader never sees half a file. False after printing
// "diskpulse COMMAND: cannot write ..." (the caller exits 1).
bool WriteWholeOrSay(const std::string& file, std::string_view bytes, std::string_view command);

}  // namespace dp::cli
