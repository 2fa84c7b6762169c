// The first start of a container whose configuration volume is empty: the
// owner has no shell to write diskpulse.json, and an empty bind mount (TrueNAS
// SCALE host paths, Unraid appdata, Synology shares) hides the image's own.
// The image names its template in DISKPULSE_CONFIG_TEMPLATE; when the file
// given with -c does not exist, the template is copied there (so the owner
// edits it later from the NAS's file manager) and said so. A volume mounted
// read-only cannot take it: the template is then read in place.
#pragma once

#include <string>

#include "base/result.h"

namespace dp {

struct FirstStartConfig {
  std::string path;     // the file to load: config_path, or the template when it could not be written
  std::string message;  // "" when nothing was done; else one line for the log
};

// Nothing is done (path = config_path, no message) when config_path exists
// or template_path is empty. Error: the template cannot be read.
Result<FirstStartConfig> WriteConfigIfMissing(const std::string& config_path,
                                              const std::string& template_path);

}  // namespace dp
