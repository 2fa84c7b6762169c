// Result<T>: a value or the Status saying why there is none (like absl::StatusOr).
// Accessing value() of an error Result is a bug and aborts.
#pragma once

#include <cstdlib>
#include <optional>
#include <utility>

#include "base/status.h"

namespace dp {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    if (status_.ok()) status_ = Internal("Result built from an OK status without a value");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  T& value() & { Check(); return *value_; }
  const T& value() const& { Check(); return *value_; }
  T&& value() && { Check(); return std::move(*value_); }
  T value_or(T fallback) const& { return ok() ? *value_ : std::move(fallback); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  void Check() const {
    if (!value_) std::abort();
  }
  std::optional<T> value_;
  Status status_;
};

}  // namespace dp

#define DP_CONCAT_INNER_(a, b) a##b
#define DP_CONCAT_(a, b) DP_CONCAT_INNER_(a, b)
// DP_ASSIGN_OR_RETURN(auto x, Foo()); returns Foo()'s status on error.
#define DP_ASSIGN_OR_RETURN(lhs, expr) \
  DP_ASSIGN_OR_RETURN_IMPL_(DP_CONCAT_(dp_result_, __LINE__), lhs, expr)
#define DP_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()
