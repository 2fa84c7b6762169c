// Helpers shared by the store tests: a fresh store in a temp dir, raw SQLite
// access to look behind the API, and small builders of model values.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

#include "store/store.h"
#include "support/temp_dir.h"

namespace dp::testing {

// A Store on a new file in its own temp directory.
class StoreFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    db_path_ = dir_.Path("diskpulse.db");
    auto s = Store::Open(db_path_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
  }

  // Closes and reopens the store (data must survive).
  void Reopen() {
    store_.reset();
    auto s = Store::Open(db_path_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
  }

  TempDir dir_;
  std::string db_path_;
  std::unique_ptr<Store> store_;
};

// A second, raw connection for looking at what the store wrote.
class RawDb {
 public:
  explicit RawDb(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "cannot open " << path;
    }
  }
  ~RawDb() { sqlite3_close(db_); }
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;

  void Exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << (err ? err : "?");
    }
    sqlite3_free(err);
  }
  // First column of the first row as text ("" when no row / NULL).
  std::string Text(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    std::string out;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
      return out;
    }
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
  }
  // All rows, columns joined by '|', rows by '\n'.
  std::string Rows(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    std::string out;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
      return out;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
      if (!out.empty()) out += '\n';
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        if (c) out += '|';
        auto* t = sqlite3_column_text(st, c);
        out += t ? reinterpret_cast<const char*>(t) : "NULL";
      }
    }
    sqlite3_finalize(st);
    return out;
  }
  long long Int(const std::string& sql) { return std::stoll("0" + Text(sql)); }

 private:
  sqlite3* db_ = nullptr;
};

inline Drive MakeDrive(const std::string& id, const std::string& name) {
  Drive d;
  d.id = id;
  d.name = name;
  d.dev_path = "/dev/" + name;
  d.model = "WDC WD40EFRX-68N32N0";
  d.serial = "WD-" + name;
  return d;
}

inline Run MakeRun(const std::string& drive_id, const std::string& test, std::int64_t at) {
  Run r;
  r.drive_id = drive_id;
  r.test = test;
  r.trigger = "schedule:weekly";
  r.started_at = at;
  r.ended_at = at + 60;
  r.outcome = RunOutcome::kOk;
  r.engine = "pread";
  return r;
}

}  // namespace dp::testing
