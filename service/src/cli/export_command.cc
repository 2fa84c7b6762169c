// diskpulse export DRIVE [--format csv|json] [--out FILE] [connection flags]:
// everything the daemon keeps about one drive (GET /api/v1/drives/{id}/export:
// every figure of every run, every SMART snapshot, every alert), printed or
// written to FILE whole. A daemon that guards its reads wants the read token
// (or the API token), as the page does.
// Exit: 0 done; 1 the daemon refused (unknown drive, no/wrong token) or FILE
// cannot be written; 2 usage error or the daemon cannot be reached.
#include <cstdio>
#include <string>

#include "cli/api_call.h"
#include "cli/commands.h"
#include "cli/daemon_client.h"

namespace dp::cli {
namespace {

constexpr const char* kUsage =
    "usage: diskpulse export DRIVE [--format csv|json] [--out FILE] [--url URL] [--token TOKEN]\n"
    "\n"
    "Everything diskpulsed keeps about DRIVE (its id, name or /dev path): every figure of\n"
    "every run, every SMART snapshot with its attributes, and every alert.\n"
    "  --format json      the structure as the API keeps it (the default)\n"
    "  --format csv       one table with a 'record' column, for a spreadsheet\n"
    "  --out FILE         write FILE (whole or not at all) instead of printing\n"
    "The default timeout here is 120 s.\n";

}  // namespace

int RunExportCommand(const Args& args) {
  DaemonClientOptions options = DaemonClientOptionsFromEnvironment();
  options.timeout = std::chrono::seconds(120);
  std::string drive, format = "json", out;
  if (auto done = ParseClientArgs(args, options,
                                  {.command = "export",
                                   .usage = kUsage,
                                   .values = {{"--format", &format}, {"--out", &out}},
                                   .word = OneWord(drive)}))
    return *done;
  if (!DriveGivenOrSay(drive, "export", kUsage)) return 2;
  if (format != "csv" && format != "json") {
    std::fprintf(stderr, "diskpulse export: --format is csv or json, not '%s'\n%s",
                 format.c_str(), kUsage);
    return 2;
  }
  auto client = ConnectOrSay(options, "export");
  if (!client) return 2;
  auto got = client->Get("/api/v1/drives/" + UrlEncode(drive) + "/export?format=" + format);
  if (!got.ok()) {
    std::fprintf(stderr, "diskpulse export: %s\n", got.status().message().c_str());
    return 2;
  }
  if (got->status != 200) {
    ApiAnswer answer{got->status, nlohmann::json::parse(got->body, nullptr, false)};
    const std::string hint = got->status == 404
                                 ? "\n(see 'diskpulse status' for the drives the daemon knows)"
                                 : TokenHint(got->status);
    std::fprintf(stderr, "diskpulse export: the daemon refused: %s%s\n",
                 answer.ErrorMessage().c_str(), hint.c_str());
    return 1;
  }
  if (out.empty()) {
    std::fwrite(got->body.data(), 1, got->body.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  if (!WriteWholeOrSay(out, got->body, "export")) return 1;
  std::fprintf(stderr, "%s: %zu bytes, %s export of %s\n", out.c_str(), got->body.size(),
               format.c_str(), drive.c_str());
  return 0;
}

}  // namespace dp::cli
