#include "detect/judgement.h"

#include <algorithm>
#include <utility>

namespace dp::detect {

void Judgement::Add(Judgement other) {
  for (Verdict& v : other.verdicts) verdicts.push_back(std::move(v));
  for (InterferenceMark& m : other.interference) interference.push_back(std::move(m));
  for (RebaselineMark& m : other.rebaselines) rebaselines.push_back(std::move(m));
  for (RetestRequest& r : other.retests)
    if (std::find(retests.begin(), retests.end(), r) == retests.end())
      retests.push_back(std::move(r));
  for (std::int64_t id : other.peer_judged)
    if (std::find(peer_judged.begin(), peer_judged.end(), id) == peer_judged.end())
      peer_judged.push_back(id);
}

Status ApplyJudgement(const Judgement& judgement, JudgementEffects& effects) {
  Status first = Status::Ok();
  auto keep = [&](Status s) {
    if (first.ok() && !s.ok()) first = std::move(s);
  };
  if (!judgement.verdicts.empty()) keep(effects.Verdicts(judgement.verdicts));
  std::vector<std::pair<std::string, std::int64_t>> marked;
  for (const InterferenceMark& m : judgement.interference) {
    const auto key = std::make_pair(m.drive_id, m.run_id);
    if (std::find(marked.begin(), marked.end(), key) != marked.end()) continue;
    marked.push_back(key);
    keep(effects.MarkInterference(m));
  }
  for (const RebaselineMark& m : judgement.rebaselines) keep(effects.Rebaseline(m));
  for (std::int64_t id : judgement.peer_judged) keep(effects.MarkPeerJudged(id));
  for (const RetestRequest& r : judgement.retests) keep(effects.Retest(r));
  return first;
}

}  // namespace dp::detect
