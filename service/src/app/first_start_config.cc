#include "app/first_start_config.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/status.h"

namespace dp {

Result<FirstStartConfig> WriteConfigIfMissing(const std::string& config_path,
                                              const std::string& template_path) {
  FirstStartConfig out{config_path, ""};
  struct stat st {};
  if (template_path.empty() || ::lstat(config_path.c_str(), &st) == 0 || errno != ENOENT)
    return out;
  std::ifstream in(template_path, std::ios::binary);
  std::ostringstream text;
  if (!in || !(text << in.rdbuf()))
    return NotFound(config_path + " does not exist and its template " + template_path +
                    " (DISKPULSE_CONFIG_TEMPLATE) cannot be read");
  const std::string body = text.str();
  // O_EXCL: two starts racing on one volume never overwrite each other's.
  const std::string tmp = config_path + ".new";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    out.path = template_path;
    out.message = "cannot write " + config_path + " (" + std::strerror(errno) +
                  "): running with the image's defaults from " + template_path +
                  "; mount the configuration volume writable to keep an editable copy";
    return out;
  }
  const bool written = ::write(fd, body.data(), body.size()) == static_cast<ssize_t>(body.size());
  const int e = errno;
  if (::close(fd) != 0 || !written || ::rename(tmp.c_str(), config_path.c_str()) != 0) {
    const int why = written ? errno : e;
    ::unlink(tmp.c_str());
    out.path = template_path;
    out.message = "cannot write " + config_path + " (" + std::strerror(why) +
                  "): running with the image's defaults from " + template_path;
    return out;
  }
  out.message = "first start: wrote the default configuration to " + config_path +
                " (edit it and restart, or send SIGHUP, to change settings)";
  return out;
}

}  // namespace dp
