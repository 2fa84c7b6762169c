// MetricsFleet: a real store in a temporary folder filled with what a small
// NAS accumulates (an ATA disk with full SMART and a week of seq runs, an
// NVMe drive with a random run, a vanished disk that never had SMART and
// whose model has quotes, a backslash and a newline), a dispatcher with one
// working and one failing sink, and the /metrics answer of the router over
// them. Shared by the metrics tests and the tests of contrib/ (rules and
// dashboard must only use series the exposition really has). Tests only.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "alert/alert_dispatcher.h"
#include "base/fake_clock.h"
#include "http/api.h"
#include "model/drive.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp::testing {

class MetricsFleet {
 public:
  MetricsFleet();  // fills the store; check ok() (gtest assertions inside)

  // GET /metrics through the real router over the fleet.
  std::string Scrape() const;
  http::ApiContext Context() const;

  // Adds a run with its points; returns the run id (0 on failure).
  std::int64_t AddRun(const Drive& d, const std::string& test, RunOutcome outcome,
                      std::int64_t at, const std::vector<BenchPoint>& points = {});

  Store& store() { return *store_; }
  const std::string& db_path() const { return db_path_; }
  TempDir& tmp() { return tmp_; }

  Drive sda, nvme, gone;  // gone: missing, no SMART, odd model
  FakeClock clock;

 private:
  TempDir tmp_;
  std::string db_path_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<AlertDispatcher> dispatcher_;
};

// The value of the sample written exactly as `series` (name{labels}, labels
// in the exposition's order), or nullopt when the exposition has no such line.
std::optional<double> SampleValue(const std::string& exposition, const std::string& series);

// Runs `promtool ARGS...`; nullopt when promtool is not installed.
std::optional<std::pair<int, std::string>> RunPromtool(const std::vector<std::string>& args,
                                                        const std::string& stdin_file = "");

}  // namespace dp::testing
