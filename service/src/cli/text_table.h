// TextTable: a plain-text table for the CLI's human output: a header row,
// columns padded to their widest cell, two spaces between columns, numbers
// right-aligned on request. Not thread-safe; build one per output.
#pragma once

#include <string>
#include <vector>

namespace dp::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> headers);

  void AddRow(std::vector<std::string> cells);  // missing cells are blank
  void AlignRight(std::size_t column);
  bool empty() const { return rows_.empty(); }

  // Every row ends with '\n'; trailing spaces are trimmed.
  std::string Render() const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_;
};

}  // namespace dp::cli
