// Runs a fuzz target without libFuzzer, in two steps:
// 1. every file named on the command line, or every file of every directory named (the seed
//    corpus), is passed once to LLVMFuzzerTestOneInput;
// 2. then, for GLEANER_FUZZ_SECONDS (default 0: seeds only), inputs mutated from the seeds (bytes
//    flipped, set to values parsers care about, inserted, erased, duplicated, spliced from another
//    seed) are passed to it. The generator's seed is GLEANER_FUZZ_SEED (default 1), so a run is
//    repeatable.
// A target that crashes, throws or trips a sanitizer fails the run; the input that did it is
// written to ./fuzz-crash-<target> first (add it to the corpus once fixed: it stays a test).
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using Bytes = std::vector<std::uint8_t>;

// The input being run, for the crash handler (async-signal-safe: only write(2) on fixed buffers).
const Bytes* g_current = nullptr;
char g_crash_path[512] = "fuzz-crash";

void on_crash(int sig) {
  if (g_current != nullptr) {
    const int fd = ::open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      if (!g_current->empty()) (void)!::write(fd, g_current->data(), g_current->size());
      ::close(fd);
    }
    static const char kMessage[] = "fuzz: the input that crashed is in ";
    (void)!::write(2, kMessage, sizeof kMessage - 1);
    (void)!::write(2, g_crash_path, std::strlen(g_crash_path));
    (void)!::write(2, "\n", 1);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void run(const Bytes& input) {
  g_current = &input;
  LLVMFuzzerTestOneInput(input.data(), input.size());
  g_current = nullptr;
}

Bytes read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Bytes the parsers under test give meaning to.
constexpr std::uint8_t kInteresting[] = {0,   0xff, 0x7f, 0x80, '\r', '\n', ' ',  '\t', '"', '\'',
                                         '\\', '{', '}',  '[',  ']',  ':',  ',',  '=',  '&', '%',
                                         '(',  ')', '-',  '.',  '/',  '0',  '9',  'a',  '#', ';'};

Bytes mutate(const std::vector<Bytes>& seeds, std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); };
  Bytes out = seeds[pick(seeds.size())];
  const std::size_t edits = 1 + pick(8);
  for (std::size_t e = 0; e < edits; ++e) {
    switch (pick(7)) {
      case 0:  // flip a bit
        if (!out.empty()) out[pick(out.size())] ^= static_cast<std::uint8_t>(1u << pick(8));
        break;
      case 1:  // set a byte to one that matters
        if (!out.empty()) out[pick(out.size())] = kInteresting[pick(sizeof kInteresting)];
        break;
      case 2:  // insert one
        out.insert(out.begin() + static_cast<long>(pick(out.size() + 1)),
                   kInteresting[pick(sizeof kInteresting)]);
        break;
      case 3: {  // erase a run
        if (out.empty()) break;
        const std::size_t at = pick(out.size());
        const std::size_t n = 1 + pick(std::min<std::size_t>(16, out.size() - at));
        out.erase(out.begin() + static_cast<long>(at), out.begin() + static_cast<long>(at + n));
        break;
      }
      case 4: {  // duplicate a run (deep nesting, long numbers, repeated fields)
        if (out.empty() || out.size() > 1 << 16) break;
        const std::size_t at = pick(out.size());
        const std::size_t n = 1 + pick(std::min<std::size_t>(64, out.size() - at));
        const Bytes run(out.begin() + static_cast<long>(at), out.begin() + static_cast<long>(at + n));
        const std::size_t times = 1 + pick(16);
        for (std::size_t t = 0; t < times; ++t) {
          out.insert(out.begin() + static_cast<long>(at), run.begin(), run.end());
        }
        break;
      }
      case 5: {  // splice in a piece of another seed
        const Bytes& other = seeds[pick(seeds.size())];
        if (other.empty()) break;
        const std::size_t from = pick(other.size());
        const std::size_t n = 1 + pick(other.size() - from);
        out.insert(out.begin() + static_cast<long>(pick(out.size() + 1)),
                   other.begin() + static_cast<long>(from),
                   other.begin() + static_cast<long>(from + n));
        break;
      }
      default:  // cut the end off
        if (!out.empty()) out.resize(pick(out.size()));
        break;
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string target = std::filesystem::path(argv[0]).filename().string();
  std::snprintf(g_crash_path, sizeof g_crash_path, "fuzz-crash-%s", target.c_str());
  std::signal(SIGABRT, on_crash);
  std::signal(SIGSEGV, on_crash);
  std::signal(SIGFPE, on_crash);
  std::signal(SIGILL, on_crash);
  std::signal(SIGBUS, on_crash);

  std::vector<Bytes> seeds;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
        if (entry.is_regular_file()) seeds.push_back(read_file(entry.path()));
      }
    } else {
      seeds.push_back(read_file(path));
    }
  }
  if (seeds.empty()) {
    std::cerr << "no input: name a seed corpus directory or files\n";
    return 1;
  }
  for (const Bytes& seed : seeds) run(seed);
  std::cerr << target << ": " << seeds.size() << " seeds ran\n";

  const char* seconds_text = std::getenv("GLEANER_FUZZ_SECONDS");
  const char* seed_text = std::getenv("GLEANER_FUZZ_SEED");
  const double seconds = seconds_text ? std::atof(seconds_text) : 0;
  std::mt19937_64 rng(seed_text ? std::strtoull(seed_text, nullptr, 10) : 1);
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
  std::size_t mutated = 0;
  while (std::chrono::steady_clock::now() < until) {
    run(mutate(seeds, rng));
    ++mutated;
  }
  if (mutated > 0) std::cerr << target << ": " << mutated << " mutated inputs ran\n";
  return 0;
}
