// ProgressFn: how far a piece of work is, 0..1, told as it goes. One type for
// the bench runner (per point and per run) and the scheduler's jobs, so a
// job's progress is the bench's without an adapter. Called on the thread
// doing the work; cheap to call often.
#pragma once

#include <functional>

namespace dp {

using ProgressFn = std::function<void(double fraction)>;

}  // namespace dp
