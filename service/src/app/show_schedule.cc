#include "app/show_schedule.h"

#include <filesystem>
#include <memory>

#include "base/clock.h"
#include "base/command_runner.h"
#include "base/replay_command_runner.h"
#include "inventory/inventory.h"
#include "runs/store_scheduler_store.h"
#include "sched/preview.h"
#include "store/store.h"

namespace dp {

Result<std::string> ShowSchedule(const Config& config, int count) {
  Config c = config;
  std::unique_ptr<CommandRunner> runner;
  if (!c.replay_dir.empty()) {
    DP_ASSIGN_OR_RETURN(runner, ReplayCommandRunner::Load(c.replay_dir));
    c = ConfigForReplay(c, c.replay_dir);
  } else {
    runner = std::make_unique<PosixCommandRunner>();
  }
  DP_ASSIGN_OR_RETURN(Inventory inv, ReadInventory(c, *runner));

  std::unique_ptr<Store> store;
  std::unique_ptr<StoreSchedulerStore> states;
  std::error_code ec;
  if (std::filesystem::exists(c.database, ec)) {
    auto opened = Store::Open(c.database);
    if (opened.ok()) {
      store = std::move(opened).value();
      states = std::make_unique<StoreSchedulerStore>(*store);
    }
  }
  SystemClock clock;
  return PreviewSchedule(c.schedule_list, inv.drives, inv.pools, states.get(), clock.Now(), count);
}

}  // namespace dp
