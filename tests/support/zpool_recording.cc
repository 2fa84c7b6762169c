#include "support/zpool_recording.h"

#include <filesystem>
#include <fstream>

#include "base/command_capture.h"

namespace dp::testing {

Status WriteZpoolRecording(const std::string& dir, const std::vector<std::string>& status_texts) {
  std::error_code ec;
  std::filesystem::create_directories(dir + "/sys/block", ec);
  if (ec) return IoError(dir + ": " + ec.message());
  std::ofstream(dir + "/platform") << "linux\n";
  // Older zpools refuse -j; discovery then reads the text.
  CommandCapture no_json;
  no_json.argv = {"zpool", "status", "-j", "--json-int", "-P"};
  no_json.output.exit_code = 2;
  no_json.output.stderr_text = "invalid option 'j'\n";
  DP_RETURN_IF_ERROR(WriteCapture(dir, 1, no_json));
  int n = 2;
  for (const std::string& text : status_texts) {
    CommandCapture status;
    status.argv = {"zpool", "status", "-P", "-p"};
    status.output.exit_code = 0;
    status.output.stdout_text = text;
    DP_RETURN_IF_ERROR(WriteCapture(dir, n++, status));
  }
  return Status::Ok();
}

}  // namespace dp::testing
