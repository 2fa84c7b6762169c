#include "config/secret_files.h"

#include <sys/stat.h>

#include <cstdio>

namespace dp {
namespace {

// The secrets written into the config file itself, by their keys.
std::vector<std::string> InlineSecrets(const Config& c) {
  std::vector<std::string> keys;
  if (!c.api_token.empty()) keys.push_back("api_token");
  if (!c.read_token.empty()) keys.push_back("read_token");
  if (!c.metrics_token.empty()) keys.push_back("metrics_token");
  for (std::size_t i = 0; i < c.alerts_config.mqtt.size(); ++i)
    if (!c.alerts_config.mqtt[i].password.empty())
      keys.push_back("alerts.mqtt[" + std::to_string(i) + "].password");
  for (std::size_t i = 0; i < c.alerts_config.webhooks.size(); ++i)
    if (!c.alerts_config.webhooks[i].headers.empty())
      keys.push_back("alerts.webhooks[" + std::to_string(i) + "].headers");
  return keys;
}

void CheckFile(const std::string& path, const std::vector<std::string>& holds,
               const std::string& hint, std::vector<std::string>& out) {
  struct stat st {};
  if (path.empty() || holds.empty() || ::stat(path.c_str(), &st) != 0) return;
  if ((st.st_mode & S_IROTH) == 0) return;
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  std::string what;
  for (const std::string& k : holds) what += (what.empty() ? "" : ", ") + k;
  out.push_back(path + " is readable by every user (mode " + mode + ") and holds " + what +
                ": make it unreadable to others (chmod o-r " + path + hint + ")");
}

}  // namespace

std::vector<std::string> WorldReadableSecretWarnings(const Config& config) {
  std::vector<std::string> out;
  CheckFile(config.source, InlineSecrets(config),
            "; the packages install it 0640 root:diskpulse", out);
  CheckFile(config.tls.key_file, {"the TLS private key"}, "", out);
  return out;
}

}  // namespace dp
