// TempDir: a fresh directory under $TMPDIR (or /tmp), removed with everything
// in it when the object dies. For tests only.
#pragma once

#include <filesystem>
#include <string>

namespace dp::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string Path(const std::string& name) const { return (path_ / name).string(); }
  // Writes text to name (creating parent folders) and returns the full path.
  std::string Write(const std::string& name, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

// Reads a whole file; "" if it cannot be read.
std::string ReadFile(const std::string& path);
// DP_FIXTURES_DIR + "/" + relative.
std::string FixturePath(const std::string& relative);

}  // namespace dp::testing
