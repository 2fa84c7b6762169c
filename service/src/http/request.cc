#include "http/request.h"

namespace dp::http {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

Method ParseMethod(std::string_view name) {
  if (name == "GET") return Method::kGet;
  if (name == "HEAD") return Method::kHead;
  if (name == "POST") return Method::kPost;
  if (name == "PUT") return Method::kPut;
  if (name == "PATCH") return Method::kPatch;
  if (name == "DELETE") return Method::kDelete;
  if (name == "OPTIONS") return Method::kOptions;
  return Method::kOther;
}

std::string_view MethodName(Method method) {
  switch (method) {
    case Method::kGet: return "GET";
    case Method::kHead: return "HEAD";
    case Method::kPost: return "POST";
    case Method::kPut: return "PUT";
    case Method::kPatch: return "PATCH";
    case Method::kDelete: return "DELETE";
    case Method::kOptions: return "OPTIONS";
    case Method::kOther: return "OTHER";
  }
  return "OTHER";
}

bool IsMutating(Method method) {
  return method != Method::kGet && method != Method::kHead && method != Method::kOptions;
}

std::string_view Request::Path() const {
  std::string_view t = target;
  auto end = t.find_first_of("?#");
  return end == std::string_view::npos ? t : t.substr(0, end);
}

std::string_view Request::RawQuery() const {
  std::string_view t = target;
  auto q = t.find('?');
  if (q == std::string_view::npos) return {};
  t = t.substr(q + 1);
  auto hash = t.find('#');
  return hash == std::string_view::npos ? t : t.substr(0, hash);
}

std::map<std::string, std::string> Request::Query() const {
  std::map<std::string, std::string> out;
  std::string_view q = RawQuery();
  while (!q.empty()) {
    auto amp = q.find('&');
    std::string_view pair = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    if (pair.empty()) continue;
    auto eq = pair.find('=');
    std::string key(pair.substr(0, eq));
    std::string value(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
    for (auto* s : {&key, &value}) {
      for (char& c : *s)
        if (c == '+') c = ' ';
      auto decoded = PercentDecode(*s);
      if (decoded.ok()) *s = std::move(decoded).value();
    }
    out[std::move(key)] = std::move(value);
  }
  return out;
}

const std::string* Request::Header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (EqualsIgnoreCase(k, name)) return &v;
  return nullptr;
}

Request Request::Make(Method method, std::string target, std::string body) {
  Request r;
  r.method = method;
  r.target = std::move(target);
  r.body = std::move(body);
  return r;
}

Result<std::string> PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size()) {
      return InvalidArgument("truncated %-escape in '" + std::string(text) + "'");
    }
    int hi = HexValue(text[i + 1]), lo = HexValue(text[i + 2]);
    if (hi < 0 || lo < 0) return InvalidArgument("bad %-escape in '" + std::string(text) + "'");
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (LowerAscii(a[i]) != LowerAscii(b[i])) return false;
  return true;
}

}  // namespace dp::http
