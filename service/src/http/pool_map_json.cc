#include "http/pool_map_json.h"

#include "model/pool_json.h"

namespace dp::http {

nlohmann::json PoolMapToJson(const std::vector<Pool>& pools,
                             const std::map<std::string, std::string>& names,
                             const std::vector<ZfsLatencySample>& zfs) {
  std::map<std::pair<std::string, std::string>, const ZfsLatencySample*> sampled;
  for (const auto& s : zfs) sampled[{s.pool, s.member}] = &s;
  nlohmann::json out = nlohmann::json::array();
  for (const Pool& pool : pools) {
    nlohmann::json p = PoolToJson(pool);
    p["scan"]["text"] = pool.scan.text;
    p["status"] = pool.status;
    for (std::size_t v = 0; v < pool.vdevs.size(); ++v) {
      const Vdev& vdev = pool.vdevs[v];
      for (std::size_t m = 0; m < vdev.members.size(); ++m) {
        const PoolMember& member = vdev.members[m];
        auto it = names.find(member.drive_id);
        nlohmann::json& mj = p["vdevs"][v]["members"][m];
        mj["drive_name"] = it != names.end() ? nlohmann::json(it->second) : nlohmann::json(nullptr);
        mj["container"] = member.container;
        mj["parent"] = member.parent;
        mj["sit_out"] = nullptr;
        auto z = sampled.find({pool.name, member.path});
        if (z == sampled.end()) continue;
        if (!member.slow_ios && z->second->slow_ios) mj["slow_ios"] = *z->second->slow_ios;
        if (z->second->sit_out) mj["sit_out"] = *z->second->sit_out;
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace dp::http
