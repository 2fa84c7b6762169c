// A small stand-in for libFuzzer's main, so every target in fuzz/ also builds
// with the normal compiler and runs as a quick smoke test under ctest:
//
//   fuzz_X [--runs N] [--max-seconds S] [--seed K] PATH...
//
// Every file given (or found in a folder given, recursively) is run as it
// is; then N mutated inputs (default 2000), each made from a random one of
// them by a few byte-level edits in the manner of libFuzzer's mutators (flip,
// set, insert, erase, duplicate a run, splice with another input, truncate),
// with a fixed seed so a failure reproduces. Stops early after S seconds.
// A crash or sanitizer report is the failure; the last input is written to
// fuzz-crash-<target>.bin in the working directory as it dies, so it can be
// kept as a regression input. Not used when building with -fsanitize=fuzzer.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

std::string g_crash_path;
int g_crash_fd = -1;
const std::string* g_current = nullptr;

// On a crash, the input under test goes to the crash file before the
// process dies (write(2) only: async-signal-safe), so it can be kept.
extern "C" void OnCrash(int sig) {
  if (g_crash_fd >= 0 && g_current && ftruncate(g_crash_fd, 0) == 0) {
    ssize_t written = write(g_crash_fd, g_current->data(), g_current->size());
    (void)written;  // nothing better to do while dying
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void Run(const std::string& input) {
  g_current = &input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  g_current = nullptr;
}

void Collect(const fs::path& p, std::vector<std::string>& out) {
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::end(it);
         it.increment(ec))
      if (it->is_regular_file()) files.push_back(it->path());
    std::sort(files.begin(), files.end());  // the same order every run
    for (const auto& f : files) Collect(f, out);
    return;
  }
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz driver: cannot read %s\n", p.c_str());
    std::exit(2);
  }
  out.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string Mutate(const std::vector<std::string>& pool, std::mt19937_64& rng) {
  std::string s = pool.empty() ? std::string() : pool[rng() % pool.size()];
  const char* interesting[] = {"\0", "\xff", "0", "-1", "{", "}", "[", "]", "\"", "\\", ":", ",",
                               "\n", "\r\n", " ", "%", "{{", "}}", "99999999999999999999",
                               "1e400", "null", "\t", "/"};
  int edits = 1 + static_cast<int>(rng() % 8);
  for (int e = 0; e < edits; ++e) {
    std::size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (rng() % 8) {
      case 0:  // flip a bit
        if (!s.empty()) s[at % s.size()] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1:  // set a random byte
        if (!s.empty()) s[at % s.size()] = static_cast<char>(rng());
        break;
      case 2: {  // insert an interesting token
        const char* t = interesting[rng() % std::size(interesting)];
        s.insert(at, t, std::max<std::size_t>(1, std::strlen(t)));
        break;
      }
      case 3: {  // erase a run
        std::size_t n = 1 + rng() % 16;
        if (at < s.size()) s.erase(at, n);
        break;
      }
      case 4: {  // duplicate a run
        if (s.empty()) break;
        std::size_t from = rng() % s.size();
        std::size_t n = 1 + rng() % std::min<std::size_t>(64, s.size() - from);
        s.insert(at, s.substr(from, n));
        break;
      }
      case 5: {  // splice in part of another input
        if (pool.empty()) break;
        const std::string& o = pool[rng() % pool.size()];
        if (o.empty()) break;
        std::size_t from = rng() % o.size();
        s.insert(at, o.substr(from, 1 + rng() % 256));
        break;
      }
      case 6:  // truncate
        s.resize(at);
        break;
      default: {  // replace a digit run with an extreme number
        auto d = s.find_first_of("0123456789", at);
        if (d == std::string::npos) break;
        auto end = s.find_first_not_of("0123456789", d);
        const char* nums[] = {"0", "-1", "4294967296", "18446744073709551616", "9e99", "00"};
        s.replace(d, (end == std::string::npos ? s.size() : end) - d, nums[rng() % 6]);
        break;
      }
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  long runs = 2000;
  double max_seconds = 10;
  std::uint64_t seed = 1;
  std::vector<std::string> inputs;
  std::string name = fs::path(argv[0]).filename().string();
  g_crash_path = "fuzz-crash-" + name + ".bin";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--runs" || a == "--max-seconds" || a == "--seed") && i + 1 < argc) {
      std::string v = argv[++i];
      if (a == "--runs") runs = std::stol(v);
      else if (a == "--max-seconds") max_seconds = std::stod(v);
      else seed = std::stoull(v);
    } else {
      Collect(a, inputs);
    }
  }
  g_crash_fd = open(g_crash_path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) signal(sig, OnCrash);
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  Run("");
  for (const auto& in : inputs) Run(in);
  std::mt19937_64 rng(seed);
  long done = 0;
  for (; done < runs && elapsed() < max_seconds; ++done) Run(Mutate(inputs, rng));
  close(g_crash_fd);
  std::error_code ec;
  fs::remove(g_crash_path, ec);
  std::printf("%s: %zu inputs as given, %ld mutated (seed %llu) in %.1f s: no crash\n",
              name.c_str(), inputs.size(), done, static_cast<unsigned long long>(seed), elapsed());
  return 0;
}
