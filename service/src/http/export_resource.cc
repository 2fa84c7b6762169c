// GET /api/v1/drives/{id}/export?format=json|csv: everything kept about one
// drive, to take elsewhere (a spreadsheet, another tool, a bug report):
// every figure of every run, every SMART snapshot's figures and attributes,
// and every alert. JSON keeps the structure; CSV is one long table with a
// `record` column (measurement, smart, attribute, alert) so one file opens
// in any spreadsheet.
// POST /api/v1/backup (token): a consistent copy of the whole database,
// taken online (SQLite's backup API) while runs go on, as an SQLite file.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "http/api.h"
#include "http/api_drive_json.h"
#include "http/resource_json.h"
#include "store/store.h"

namespace dp::http {
namespace {

struct DriveExport {
  Drive drive;
  std::vector<DriveMeasurement> measurements;
  std::vector<std::pair<std::int64_t, SmartSnapshot>> smart;  // oldest first
  std::vector<Alert> alerts;                                   // oldest first
};

Result<DriveExport> Collect(Store& store, const Drive& drive) {
  DriveExport e;
  e.drive = drive;
  DP_ASSIGN_OR_RETURN(e.measurements, store.DriveMeasurements(drive.id));
  DP_ASSIGN_OR_RETURN(e.smart, store.SmartHistory(drive.id, 0, 0));
  std::reverse(e.smart.begin(), e.smart.end());
  AlertFilter filter;
  filter.drive_id = drive.id;
  filter.limit = 0;
  DP_ASSIGN_OR_RETURN(e.alerts, store.ListAlerts(filter));
  std::reverse(e.alerts.begin(), e.alerts.end());
  return e;
}

nlohmann::json ExportJson(const DriveExport& e, std::int64_t now) {
  nlohmann::json measurements = nlohmann::json::array();
  for (const DriveMeasurement& m : e.measurements) {
    const MeasurementSample& s = m.sample;
    measurements.push_back({{"run_id", s.run_id}, {"at", s.at}, {"test", m.test},
                            {"metric", m.metric}, {"unit", m.unit}, {"zone", s.zone},
                            {"stroke", s.stroke}, {"variant", s.variant},
                            {"block_size", s.block_size}, {"queue_depth", s.queue_depth},
                            {"value", s.value}, {"contended", s.contended},
                            {"partial", s.partial}, {"unwritten", s.unwritten}});
  }
  nlohmann::json smart = nlohmann::json::array();
  for (const auto& [at, snap] : e.smart) {
    nlohmann::json row = {{"at", at}};
    for (auto& [name, value] : SmartFigures(snap)) row[name] = value;
    nlohmann::json attrs = nlohmann::json::array();
    for (const SmartAttribute& a : snap.attributes)
      attrs.push_back({{"id", a.id}, {"name", a.name}, {"value", OrNull(a.value)},
                       {"worst", OrNull(a.worst)}, {"thresh", OrNull(a.thresh)},
                       {"raw", OrNull(a.raw)}, {"raw_string", a.raw_string}});
    row["attributes"] = std::move(attrs);
    smart.push_back(std::move(row));
  }
  nlohmann::json alerts = nlohmann::json::array();
  for (const Alert& a : e.alerts) alerts.push_back(AlertToJson(a));
  return {{"exported_at", now},        {"drive", ApiDriveToJson(e.drive)},
          {"measurements", measurements}, {"smart", smart},
          {"alerts", alerts}};
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string CsvField(std::string_view v) {
  if (v.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(v);
  std::string out = "\"";
  for (char c : v) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvValue(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return CsvField(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  return v.dump();
}

constexpr const char* kCsvHeader =
    "record,at,run_id,test,metric,unit,zone,stroke,variant,block_size,queue_depth,value,"
    "flags,text\r\n";

struct CsvRow {
  std::string record;
  std::int64_t at = 0;
  std::string run_id, test, metric, unit, zone, stroke, variant, block_size, queue_depth;
  std::string value, flags, text;
};

void AppendCsv(std::string& out, const CsvRow& r) {
  out += r.record + "," + std::to_string(r.at) + "," + r.run_id + "," + CsvField(r.test) + "," +
         CsvField(r.metric) + "," + CsvField(r.unit) + "," + CsvField(r.zone) + "," +
         CsvField(r.stroke) + "," + CsvField(r.variant) + "," + r.block_size + "," +
         r.queue_depth + "," + r.value + "," + CsvField(r.flags) + "," + CsvField(r.text) + "\r\n";
}

std::string Number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string ExportCsv(const DriveExport& e) {
  std::string out = kCsvHeader;
  for (const DriveMeasurement& m : e.measurements) {
    const MeasurementSample& s = m.sample;
    std::string flags;
    for (auto [on, name] : {std::pair{s.contended, "contended"}, std::pair{s.partial, "partial"},
                            std::pair{s.unwritten, "unwritten"},
                            std::pair{s.interfered, "interfered"}})
      if (on) flags += flags.empty() ? name : std::string(" ") + name;
    AppendCsv(out, {"measurement", s.at, std::to_string(s.run_id), m.test, m.metric, m.unit,
                    s.zone, s.stroke, s.variant, std::to_string(s.block_size),
                    std::to_string(s.queue_depth), Number(s.value), flags, std::string()});
  }
  for (const auto& [at, snap] : e.smart) {
    for (const auto& [name, value] : SmartFigures(snap)) {
      if (value.is_null()) continue;
      CsvRow r;
      r.record = "smart";
      r.at = at;
      r.metric = name;
      r.value = CsvValue(value);
      AppendCsv(out, r);
    }
    for (const SmartAttribute& a : snap.attributes) {
      CsvRow r;
      r.record = "attribute";
      r.at = at;
      r.metric = std::to_string(a.id) + " " + a.name;
      if (a.raw) r.value = std::to_string(*a.raw);
      if (a.value) r.flags = "value=" + std::to_string(*a.value);
      r.text = a.raw_string;
      AppendCsv(out, r);
    }
  }
  for (const Alert& a : e.alerts) {
    CsvRow r;
    r.record = "alert";
    r.at = a.opened_at;
    r.metric = a.condition;
    r.flags = a.severity + " " + a.state;
    r.text = a.summary;
    AppendCsv(out, r);
  }
  return out;
}

}  // namespace

void AddExportResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/drives/{id}/export", [ctx](const Request& req, const PathParams& params) {
    auto query = req.Query();
    std::string format = query.count("format") ? query.at("format") : "json";
    if (format != "json" && format != "csv")
      return ErrorResponse(400, "bad_request", "format must be json or csv, not '" + format + "'");
    auto drive = DriveByRef(*ctx.store, params.at("id"));
    if (!drive.ok()) return StatusResponse(drive.status());
    auto data = Collect(*ctx.store, *drive);
    if (!data.ok()) return StatusResponse(data.status());
    const std::int64_t now = ToUnixSeconds(ctx.clock->Now());
    Response r;
    std::string file = "diskpulse-" + drive->id + "-" + std::to_string(now);
    for (char& c : file)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    if (format == "csv") {
      r.content_type = "text/csv; charset=utf-8";
      r.body = ExportCsv(*data);
      file += ".csv";
    } else {
      r = JsonResponse(ExportJson(*data, now));
      file += ".json";
    }
    r.SetHeader("Content-Disposition", "attachment; filename=\"" + file + "\"");
    r.SetHeader("Cache-Control", "no-store");
    return r;
  });
  router.Post("/api/v1/backup", [ctx](const Request&, const PathParams&) {
    auto bytes = ctx.store->BackupBytes();
    if (!bytes.ok()) return StatusResponse(bytes.status());
    Response r;
    r.content_type = "application/vnd.sqlite3";
    r.body = std::move(bytes).value();
    r.SetHeader("Content-Disposition",
                "attachment; filename=\"diskpulse-" +
                    std::to_string(ToUnixSeconds(ctx.clock->Now())) + ".db\"");
    r.SetHeader("Cache-Control", "no-store");
    return r;
  });
}

}  // namespace dp::http
