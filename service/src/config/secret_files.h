// Files that hold a secret and that every user of the machine may read: the
// config file when it holds a token or a password inline (api_token,
// read_token, metrics_token, an MQTT password, webhook headers, which carry
// their service's credentials), and the TLS private key. The daemon logs one
// warning per file at start and at each reload; it still runs (the owner
// may have reasons), but says what to do.
#pragma once

#include <string>
#include <vector>

#include "config/config.h"

namespace dp {

// One line per such file: "PATH is readable by every user (mode 0644) and
// holds api_token, mqtt[0].password: chmod o-r PATH ...". A file that cannot
// be looked at is not reported (the loader already said what it could).
std::vector<std::string> WorldReadableSecretWarnings(const Config& config);

}  // namespace dp
