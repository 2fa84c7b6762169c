// The smartctl -x -j captures the demo's simulated drives answer with (real
// output of real drives, see demo_captures.cc for their provenance).
#pragma once

#include <string_view>

namespace dp {

std::string_view DemoHddCapture();   // SATA NAS HDD (WD Red)
std::string_view DemoNvmeCapture();  // NVMe SSD (Samsung 970 EVO Plus)

}  // namespace dp
