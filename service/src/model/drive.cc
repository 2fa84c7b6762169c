#include "model/drive.h"

#include <cctype>

namespace dp {
namespace {

std::string Fold(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += '_';
    space = false;
    out += c;
  }
  return out;
}

}  // namespace

std::string MakeDriveId(const std::optional<std::string>& wwn, const std::string& model,
                        const std::string& serial, const std::string& dev_path) {
  if (wwn && !wwn->empty()) return "wwn-" + *wwn;
  std::string m = Fold(model), s = Fold(serial);
  if (!s.empty()) return (m.empty() ? std::string("unknown") : m) + "_" + s;
  return "path-" + dev_path;
}

std::string DeviceBasename(const std::string& dev_path) {
  const std::size_t slash = dev_path.rfind('/');
  return slash == std::string::npos ? dev_path : dev_path.substr(slash + 1);
}

bool IsDriveRef(const Drive& drive, std::string_view ref) {
  if (ref.empty()) return false;
  return ref == drive.id || ref == drive.name || ref == drive.dev_path ||
         (!drive.dev_path.empty() && ref == DeviceBasename(drive.dev_path));
}

}  // namespace dp
