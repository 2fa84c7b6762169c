// Boost's assertion handler for the libFuzzer builds (benchmarks/fuzz.sh defines
// BOOST_ENABLE_ASSERT_HANDLER): a failed BOOST_ASSERT aborts with the usual
// message, as assert() would, except for one assertion known to be wrong.
//
// Beast's chunked-body parser up to Boost 1.85 asserts `n >= 5` when it
// comes back to a final chunk it has already checked; without a CRLF before
// it ("0\r\n" as the first chunk, then more bytes in later calls) three
// bytes are enough and the parser goes on correctly, returning need_more
// (boostorg/beast pull request 2861 relaxed it to 3 in Boost 1.86). The
// bytes it re-reads there were validated by the earlier call, so nothing is
// read out of bounds. Debian 12 ships 1.74; release builds (NDEBUG) have no
// assertion at all, so only a Debug build of the daemon would abort on it.
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace boost {

void assertion_failed(char const* expr, char const* function, char const* file, long line) {
  if (std::strcmp(expr, "n >= 5") == 0 && std::strstr(function, "parse_chunk_header") != nullptr &&
      std::strstr(file, "beast/http/impl/basic_parser.ipp") != nullptr)
    return;
  std::fprintf(stderr, "%s:%ld: %s: Assertion `%s' failed.\n", file, line, function, expr);
  std::abort();
}

void assertion_failed_msg(char const* expr, char const* msg, char const* function, char const* file,
                          long line) {
  std::fprintf(stderr, "%s:%ld: %s: Assertion `%s' failed: %s\n", file, line, function, expr, msg);
  std::abort();
}

}  // namespace boost
