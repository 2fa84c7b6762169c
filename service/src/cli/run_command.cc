// diskpulse run DRIVE [--test T] [--force] [--wait] [--json] [connection flags]:
// asks diskpulsed to run one test of one drive now (POST /api/v1/runs) and,
// with --wait, follows its progress (GET /api/v1/runs/{id}) and prints the
// result. The daemon does the work; the CLI never touches the drive.
// Exit: 0 queued (or, with --wait, finished ok); 1 the daemon refused or the
// run did not end ok; 2 usage error or the daemon cannot be reached.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

#include "cli/api_call.h"
#include "cli/commands.h"
#include "cli/daemon_client.h"
#include "cli/text_table.h"

namespace dp::cli {
namespace {

constexpr const char* kUsage =
    "usage: diskpulse run DRIVE [--test TEST] [--force] [--wait] [--json] [--url URL] "
    "[--token TOKEN]\n"
    "\n"
    "Asks diskpulsed to run one test of DRIVE (its id, name or /dev path) now.\n"
    "  --test TEST        zones, seek, random, seq (default), sweep, smart, smart-short,\n"
    "                     smart-long; pool-write POOL, parallel POOL/VDEV\n"
    "  --force            run even if the drive is busy, asleep or its pool is scrubbing\n"
    "  --wait             follow the run's progress and print its result\n"
    "  --json             print the run as JSON\n";

std::string Num(const nlohmann::json& v, const char* fmt, double scale = 1) {
  if (!v.is_number()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v.get<double>() * scale);
  return buf;
}

std::string SeriesOf(const nlohmann::json& p) {
  std::string s;
  auto add = [&](const nlohmann::json& v) {
    if (!v.is_string() || v.get<std::string>().empty()) return;
    if (!s.empty()) s += " ";
    s += v.get<std::string>();
  };
  add(p.value("zone", nlohmann::json()));
  add(p.value("stroke", nlohmann::json()));
  add(p.value("variant", nlohmann::json()));
  int qd = p.value("queue_depth", 0), bs = p.value("block_size", 0);
  if (qd) s += (s.empty() ? "" : " ") + std::string("qd") + std::to_string(qd);
  if (bs)
    s += (s.empty() ? "" : " ") +
         (bs % 1048576 == 0 ? std::to_string(bs / 1048576) + "m" : std::to_string(bs / 1024) + "k");
  return s.empty() ? "-" : s;
}

void PrintRun(const nlohmann::json& run) {
  std::string outcome = run.value("outcome", "?");
  std::printf("run %lld: %s of %s: %s", run.value("id", 0LL), run.value("test", "?").c_str(),
              run["drive_id"].is_string() ? run["drive_id"].get<std::string>().c_str() : "-",
              outcome.c_str());
  std::string reason = run.value("reason", "");
  if (!reason.empty()) std::printf(" (%s)", reason.c_str());
  std::printf("\n");
  std::printf("  started %s, ended %s", FormatWhen(run["started_at"]).c_str(),
              FormatWhen(run["ended_at"]).c_str());
  if (run.value("contended", false)) std::printf(", CONTENDED (not used as evidence)");
  if (run.value("partial", false)) std::printf(", PARTIAL");
  std::printf("\n");
  const auto& points = run.value("points", nlohmann::json::array());
  if (!points.is_array() || points.empty()) return;
  TextTable table({"SERIES", "MB/S", "IOPS", "ACCESS MS", "P99 MS", "FLAGS"});
  for (std::size_t c = 1; c <= 4; ++c) table.AlignRight(c);
  for (const auto& p : points) {
    std::string flags;
    if (p.value("contended", false)) flags += "contended ";
    if (p.value("partial", false)) flags += "partial";
    table.AddRow({SeriesOf(p), Num(p["mb_per_s"], "%.1f"), Num(p["iops"], "%.0f"),
                  Num(p["access_ms"], "%.2f"), Num(p["p99_us"], "%.2f", 1e-3), flags});
  }
  std::printf("\n%s", table.Render().c_str());
}

}  // namespace

int RunRunCommand(const Args& args) {
  DaemonClientOptions options = DaemonClientOptionsFromEnvironment();
  std::string drive, test = "seq";
  bool wait = false, json = false, force = false;
  if (auto done =
          ParseClientArgs(args, options,
                          {.command = "run",
                           .usage = kUsage,
                           .values = {{"--test", &test}, {"-t", &test}},
                           .switches = {{"--wait", &wait}, {"--json", &json}, {"--force", &force}},
                           .word = OneWord(drive)}))
    return *done;
  if (!DriveGivenOrSay(drive, "run", kUsage)) return 2;
  auto client = ConnectOrSay(options, "run");
  if (!client) return 2;
  nlohmann::json body = {{"drive", drive}, {"test", test}, {"trigger", "cli"}};
  if (force) body["force"] = true;
  int exit_code = 0;
  auto posted = CallOrSay(*client, "run", "POST", "/api/v1/runs", exit_code, &body);
  if (!posted) return exit_code;
  long long id = posted->body.value("id", 0LL);
  if (!wait) {
    if (json) {
      std::printf("%s\n", posted->body.dump(2).c_str());
    } else {
      std::printf(
          "run %lld queued: %s of %s (follow it with 'diskpulse run %s --test %s --wait' "
          "or GET /api/v1/runs/%lld)\n",
          id, test.c_str(), drive.c_str(), drive.c_str(), test.c_str(), id);
    }
    return 0;
  }

  const std::string path = "/api/v1/runs/" + std::to_string(id);
  const bool tty = !json && ::isatty(STDERR_FILENO);
  if (!json) std::fprintf(stderr, "run %lld queued: %s of %s\n", id, test.c_str(), drive.c_str());
  std::string last_state;
  int failures = 0;
  nlohmann::json run;
  while (true) {
    auto got = CallApi(*client, "GET", path);
    if (!got.ok()) {
      // The daemon may be restarting; give it a few tries before giving up.
      if (++failures >= 5) {
        std::fprintf(stderr, "%sdiskpulse run: %s\n", tty ? "\n" : "",
                     got.status().message().c_str());
        return 2;
      }
    } else if (!got->ok()) {
      std::fprintf(stderr, "%sdiskpulse run: %s\n", tty ? "\n" : "", got->ErrorMessage().c_str());
      return 1;
    } else {
      failures = 0;
      run = got->body;
      if (!run.value("active", false)) break;
      std::string state = run.value("outcome", "?");
      std::string reason = run.value("reason", "");
      int percent = static_cast<int>(std::lround(100 * run.value("progress", 0.0)));
      std::string line = state + (state == "running" ? " " + std::to_string(percent) + "%" : "") +
                         (reason.empty() ? "" : " (" + reason + ")");
      if (tty) {
        std::fprintf(stderr, "\r  %-70s", line.c_str());
      } else if (!json && line != last_state && state != "running") {
        std::fprintf(stderr, "  %s\n", line.c_str());
      }
      last_state = line;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  if (tty) std::fprintf(stderr, "\r%-74s\r", "");
  if (json) {
    std::printf("%s\n", run.dump(2).c_str());
  } else {
    PrintRun(run);
  }
  return run.value("outcome", "") == "ok" ? 0 : 1;
}

}  // namespace dp::cli
