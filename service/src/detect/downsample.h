// DownsampleExtremes: a series thinned to at most `points` samples for a
// chart, keeping each stretch's lowest and highest value so a dip (or a
// spike) survives the thinning: a chart 400 pixels wide does not need 2,000
// runs, but it must still show the week a drive read 30% slower.
#pragma once

#include <cstddef>
#include <vector>

#include "detect/sample.h"

namespace dp::detect {

// `in` in time order. Returns `in` itself when it has no more than `points`
// samples; otherwise points/2 consecutive stretches of equal count, each
// giving its lowest and its highest sample (one when they are the same), in
// time order: at most `points` samples. Within a stretch the extremes are
// taken among its good samples (Sample::Good), so a contended run never
// hides a real dip; a stretch of flagged runs only gives its own extremes.
// `points` below 2 is taken as 2.
std::vector<Sample> DownsampleExtremes(const std::vector<Sample>& in, std::size_t points);

}  // namespace dp::detect
