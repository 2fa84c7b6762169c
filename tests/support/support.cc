#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include "support/temp_dir.h"

namespace dp::testing {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/diskpulse-test-XXXXXX";
  if (char* p = mkdtemp(tmpl.data())) path_ = p;
  else std::abort();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::Write(const std::string& name, const std::string& text) const {
  auto p = path_ / name;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string FixturePath(const std::string& relative) {
  return std::string(DP_FIXTURES_DIR) + "/" + relative;
}

}  // namespace dp::testing
