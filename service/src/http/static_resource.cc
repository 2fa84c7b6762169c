// The web page: every GET outside /api/ that no route claims is a file under
// webui_root (static_files.h says what is refused).
#include <memory>

#include "http/api.h"
#include "http/static_files.h"

namespace dp::http {

void AddStaticResource(Router& router, const ApiContext& ctx) {
  if (ctx.webui_root.empty()) return;
  auto files = std::make_shared<const StaticFiles>(ctx.webui_root);
  router.SetFallback(
      [files](const Request& request, const PathParams&) { return files->Serve(request); });
}

}  // namespace dp::http
