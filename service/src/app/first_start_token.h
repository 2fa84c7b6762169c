// The first start of a daemon that listens beyond loopback with no token
// configured (a container, a NAS app): every read would be refused, and the
// owner has no shell to edit the configuration. So the daemon makes an API
// token itself, keeps it beside the database (mode 0600, read again at every
// start) and prints it once, with the page's address, when it makes it.
// A configured api_token or read_token, or "public_read": true, turns this
// off; deleting the file makes a new token at the next start.
#pragma once

#include <optional>
#include <string>

#include "base/result.h"
#include "config/config.h"

namespace dp {

// Where the kept token lives: the database's folder.
std::string FirstStartTokenPath(const Config& c);

struct FirstStartToken {
  std::string path;
  std::string token;
  bool made_now = false;  // false: read from the file of an earlier start
};

// nullopt when the configuration needs no token of its own (loopback, a
// token configured, public reads). Otherwise sets c.api_token to the kept
// token, making and storing one first when there is none. Errors: the file
// cannot be read or written (named).
Result<std::optional<FirstStartToken>> TakeFirstStartToken(Config& c);

}  // namespace dp
