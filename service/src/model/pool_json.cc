#include "model/pool_json.h"

#include "model/json_fields.h"

namespace dp {
namespace {

using nlohmann::json;
using namespace json_fields;

std::optional<std::uint64_t> GetCount(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_unsigned()) return std::nullopt;
  return it->get<std::uint64_t>();
}

}  // namespace

nlohmann::json PoolToJson(const Pool& pool) {
  json vdevs = json::array();
  for (const auto& v : pool.vdevs) {
    json members = json::array();
    for (const auto& m : v.members) {
      members.push_back({{"path", m.path},
                         {"state", StrOrNull(m.state)},
                         {"read_errors", OptOrNull(m.read_errors)},
                         {"write_errors", OptOrNull(m.write_errors)},
                         {"checksum_errors", OptOrNull(m.checksum_errors)},
                         {"drive_id", StrOrNull(m.drive_id)},
                         {"note", StrOrNull(m.note)},
                         {"slow_ios", OptOrNull(m.slow_ios)}});
    }
    vdevs.push_back({{"name", v.name},
                     {"type", StrOrNull(v.type)},
                     {"role", StrOrNull(v.role)},
                     {"state", StrOrNull(v.state)},
                     {"members", std::move(members)}});
  }
  json scan = {{"function", StrOrNull(pool.scan.function)},
               {"state", StrOrNull(pool.scan.state)},
               {"percent", OptOrNull(pool.scan.percent)}};
  return {{"name", pool.name},     {"kind", pool.kind},
          {"state", StrOrNull(pool.state)}, {"scan", std::move(scan)},
          {"errors", StrOrNull(pool.errors)}, {"vdevs", std::move(vdevs)}};
}

nlohmann::json PoolsToJson(const std::vector<Pool>& pools) {
  json arr = json::array();
  for (const auto& p : pools) arr.push_back(PoolToJson(p));
  return {{"pools", std::move(arr)}};
}

Result<std::vector<Pool>> PoolsFromJson(const nlohmann::json& j) {
  const json* list = nullptr;
  json single;
  if (j.is_object() && j.contains("pools")) {
    list = &j["pools"];
  } else if (j.is_object()) {
    single = json::array({j});
    list = &single;
  }
  if (!list || !list->is_array()) return InvalidArgument("pools: expected an array");
  std::vector<Pool> out;
  for (const auto& pj : *list) {
    if (!pj.is_object() || !pj.contains("name") || !pj["name"].is_string()) {
      return InvalidArgument("pools[]: each pool needs a string \"name\"");
    }
    Pool p;
    p.name = pj["name"].get<std::string>();
    if (auto k = GetString(pj, "kind"); !k.empty()) p.kind = k;
    p.state = GetString(pj, "state");
    p.errors = GetString(pj, "errors");
    if (auto s = pj.find("scan"); s != pj.end() && s->is_object()) {
      p.scan.function = GetString(*s, "function");
      p.scan.state = GetString(*s, "state");
      if (auto pc = s->find("percent"); pc != s->end() && pc->is_number()) {
        p.scan.percent = pc->get<double>();
      }
    }
    if (auto vs = pj.find("vdevs"); vs != pj.end() && vs->is_array()) {
      for (const auto& vj : *vs) {
        if (!vj.is_object()) return InvalidArgument("pools[].vdevs[]: expected objects");
        Vdev v;
        v.name = GetString(vj, "name");
        v.type = GetString(vj, "type");
        v.role = GetString(vj, "role");
        v.state = GetString(vj, "state");
        if (auto ms = vj.find("members"); ms != vj.end() && ms->is_array()) {
          for (const auto& mj : *ms) {
            if (!mj.is_object()) return InvalidArgument("pools[].vdevs[].members[]: expected objects");
            PoolMember m;
            m.path = GetString(mj, "path");
            m.state = GetString(mj, "state");
            m.read_errors = GetCount(mj, "read_errors");
            m.write_errors = GetCount(mj, "write_errors");
            m.checksum_errors = GetCount(mj, "checksum_errors");
            m.drive_id = GetString(mj, "drive_id");
            m.note = GetString(mj, "note");
            m.slow_ios = GetCount(mj, "slow_ios");
            v.members.push_back(std::move(m));
          }
        }
        p.vdevs.push_back(std::move(v));
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace dp
