// The series of a drive that share a noise source with a given series
// (detect::SameNoiseFamily: the zones and seq read the same path, the seek
// strokes move the same actuator), each with its baseline formed from its own
// runs alone, read from the store exactly as the evaluator reads a series
// (DetectionHistory from the test's re-baseline mark). The evaluator pools
// their spread into a series' baseline (detect/baseline.h, SpreadPrior), and
// the history and metrics endpoints do the same so the band they draw is the
// band the series is judged against.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "config/alerts_config.h"
#include "detect/baseline.h"
#include "detect/sample.h"
#include "detect/series.h"
#include "store/store.h"

namespace dp {

// The store query of one series' samples (all its point identity fields),
// the newest kDetectionNewestRuns: what the detectors read of it.
HistoryQuery SeriesQuery(const std::string& drive_id, const detect::SeriesSpec& spec);

struct NoiseFamilyMember {
  detect::SeriesKey key;
  detect::Baseline own;  // formed without a prior
};

// Every judged series of the drive's tests that read the drive the way
// `test` does (detect::SameReadPath), from the newest good run of each such
// test: the candidates for the families of `test`'s series.
Result<std::vector<NoiseFamilyMember>> NoiseFamilyMembers(Store& store,
                                                          const std::string& drive_id,
                                                          const std::string& test,
                                                          const DetectionConfig& cfg);

// The pooled spread of key's family among `members` (itself left out).
detect::SpreadPrior FamilyPriorOf(const detect::SeriesKey& key,
                                  const std::vector<NoiseFamilyMember>& members);

// The floor of `test`'s joint series (detect::JointSpreadFloor) from its
// members' own baselines among `members`: the test's MB/s series.
detect::SpreadPrior JointFloorOf(const std::string& test,
                                 const std::vector<NoiseFamilyMember>& members);

}  // namespace dp
