#include "base/command_capture.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace dp {
namespace fs = std::filesystem;
namespace {

std::string EscapeArg(const std::string& a) {
  std::string out;
  for (char c : a) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string UnescapeArg(const std::string& a) {
  std::string out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == '\\' && i + 1 < a.size()) {
      ++i;
      out += a[i] == 'n' ? '\n' : a[i];
    } else {
      out += a[i];
    }
  }
  return out;
}

Status WriteFile(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  if (!out) return IoError(p.string() + ": cannot create");
  out << text;
  out.close();
  if (!out) return IoError(p.string() + ": write failed");
  return Status::Ok();
}

Result<std::string> ReadWhole(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return NotFound(p.string() + ": cannot read");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::string CaptureFolder(const std::string& dir) { return (fs::path(dir) / "commands").string(); }

StatusCode StatusCodeFromName(std::string_view name) {
  for (int c = 0; c <= static_cast<int>(StatusCode::kInternal); ++c) {
    if (StatusCodeName(static_cast<StatusCode>(c)) == name) return static_cast<StatusCode>(c);
  }
  return StatusCode::kInternal;
}

Status WriteCapture(const std::string& dir, int index, const CommandCapture& capture) {
  char name[16];
  std::snprintf(name, sizeof name, "%04d", index);
  fs::path folder = fs::path(CaptureFolder(dir)) / name;
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return IoError(folder.string() + ": " + ec.message());
  std::string argv;
  for (const auto& a : capture.argv) argv += EscapeArg(a) + "\n";
  DP_RETURN_IF_ERROR(WriteFile(folder / "argv", argv));
  std::string result;
  if (!capture.error.ok()) {
    result = "status " + std::string(StatusCodeName(capture.error.code())) + "\nmessage " +
             EscapeArg(capture.error.message()) + "\n";
  } else {
    result = "exit_code " + std::to_string(capture.output.exit_code) + "\nterm_signal " +
             std::to_string(capture.output.term_signal) + "\n";
  }
  DP_RETURN_IF_ERROR(WriteFile(folder / "result", result));
  DP_RETURN_IF_ERROR(WriteFile(folder / "stdout", capture.output.stdout_text));
  return WriteFile(folder / "stderr", capture.output.stderr_text);
}

Result<std::vector<CommandCapture>> ReadCaptures(const std::string& dir) {
  fs::path root = CaptureFolder(dir);
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return NotFound(root.string() + ": no recorded commands here");
  std::vector<fs::path> folders;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    if (e.is_directory()) folders.push_back(e.path());
  }
  if (ec) return IoError(root.string() + ": " + ec.message());
  std::sort(folders.begin(), folders.end());
  std::vector<CommandCapture> out;
  for (const auto& f : folders) {
    CommandCapture c;
    DP_ASSIGN_OR_RETURN(std::string argv, ReadWhole(f / "argv"));
    std::istringstream lines(argv);
    for (std::string line; std::getline(lines, line);) c.argv.push_back(UnescapeArg(line));
    if (c.argv.empty()) return Corrupt((f / "argv").string() + ": empty argv");
    DP_ASSIGN_OR_RETURN(std::string result, ReadWhole(f / "result"));
    std::istringstream rl(result);
    std::string status_name, message;
    bool have_exit = false;
    for (std::string line; std::getline(rl, line);) {
      auto sp = line.find(' ');
      std::string key = line.substr(0, sp);
      std::string value = sp == std::string::npos ? "" : line.substr(sp + 1);
      try {
        if (key == "exit_code") {
          c.output.exit_code = std::stoi(value);
          have_exit = true;
        } else if (key == "term_signal") {
          c.output.term_signal = std::stoi(value);
        } else if (key == "status") {
          status_name = value;
        } else if (key == "message") {
          message = UnescapeArg(value);
        }
      } catch (const std::exception&) {
        return Corrupt((f / "result").string() + ": bad number in '" + line + "'");
      }
    }
    if (!status_name.empty()) {
      StatusCode code = StatusCodeFromName(status_name);
      if (code == StatusCode::kOk) code = StatusCode::kInternal;
      c.error = Status(code, message);
    } else if (!have_exit) {
      return Corrupt((f / "result").string() + ": neither exit_code nor status");
    }
    // Output files are optional (a hand-made capture may leave stderr out).
    auto out_text = ReadWhole(f / "stdout");
    if (out_text.ok()) c.output.stdout_text = std::move(out_text).value();
    auto err_text = ReadWhole(f / "stderr");
    if (err_text.ok()) c.output.stderr_text = std::move(err_text).value();
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace dp
