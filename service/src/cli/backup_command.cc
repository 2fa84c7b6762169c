// diskpulse backup FILE [connection flags]: a consistent copy of diskpulsed's
// database, taken by the daemon with SQLite's online backup while it keeps
// testing and serving (POST /api/v1/backup), written to FILE. Needs the API
// token. FILE appears whole or not at all (written beside it, then renamed).
// Exit: 0 written; 1 the daemon refused or FILE cannot be written; 2 usage
// error or the daemon cannot be reached.
#include <cstdio>
#include <string>

#include "cli/api_call.h"
#include "cli/commands.h"
#include "cli/daemon_client.h"

namespace dp::cli {
namespace {

constexpr const char* kUsage =
    "usage: diskpulse backup FILE [--url URL] [--token TOKEN] [--timeout SECONDS]\n"
    "\n"
    "Copies diskpulsed's whole database to FILE (an SQLite file) while the daemon runs:\n"
    "SQLite's online backup, so runs and SMART reads go on and the copy is consistent.\n"
    "Restore: stop diskpulsed, put FILE in place of the database, start it. Needs the\n"
    "daemon's api_token. The default timeout here is 300 s.\n";

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

}  // namespace

int RunBackupCommand(const Args& args) {
  DaemonClientOptions options = DaemonClientOptionsFromEnvironment();
  options.timeout = std::chrono::seconds(300);
  std::string file;
  if (auto done = ParseClientArgs(args, options,
                                  {.command = "backup", .usage = kUsage, .word = OneWord(file)}))
    return *done;
  if (file.empty()) {
    std::fprintf(stderr, "diskpulse backup: where to? (a FILE to write)\n%s", kUsage);
    return 2;
  }
  auto client = ConnectOrSay(options, "backup");
  if (!client) return 2;
  auto got = client->Send("POST", "/api/v1/backup", "{}");
  if (!got.ok()) {
    std::fprintf(stderr, "diskpulse backup: %s\n", got.status().message().c_str());
    return 2;
  }
  if (got->status != 200) {
    ApiAnswer answer{got->status, nlohmann::json::parse(got->body, nullptr, false)};
    std::fprintf(stderr, "diskpulse backup: the daemon refused: %s%s\n",
                 answer.ErrorMessage().c_str(), TokenHint(got->status).c_str());
    return 1;
  }
  if (got->body.compare(0, kSqliteMagic.size(), kSqliteMagic) != 0) {
    std::fprintf(stderr, "diskpulse backup: the daemon's answer is not an SQLite file\n");
    return 1;
  }
  if (!WriteWholeOrSay(file, got->body, "backup")) return 1;
  std::printf("%s: %zu bytes, a consistent copy of diskpulsed's database\n", file.c_str(),
              got->body.size());
  return 0;
}

}  // namespace dp::cli
