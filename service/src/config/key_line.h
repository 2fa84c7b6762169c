// LineOfKeyPath: where a key sits in a configuration text, so that messages
// can say "FILE:LINE: key.path: what is wrong" about the right line even when
// the same key name appears in several sections. Pure function of the text
// (JSON with // and /* */ comments, already known to parse).
#pragma once

#include <string_view>

namespace dp {

// path: "listen", "http.max_connections", "targets[1].path",
// "alerts.webhooks[0].url". Returns the 1-based line of that key; when the
// key itself is absent (a required key), the line of the innermost enclosing
// element that exists; 0 when not even the first component is found.
int LineOfKeyPath(std::string_view text, std::string_view path);

// True when text holds nothing but whitespace and comments.
bool IsBlankJson(std::string_view text);

}  // namespace dp
