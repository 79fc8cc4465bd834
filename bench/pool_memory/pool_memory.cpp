// Measures what the browser pool costs in memory: the PSS of every Chromium process tree when the
// pool is idle, while it loads pages, and after N page loads, each in its own fresh browser
// context (as the service does). Pages are real fixture pages answered from a replay archive, so
// nothing touches the network and runs are comparable.
//
//   pool_memory [--loads 1000] [--concurrency 8] [--processes 2] [--pages 4] [--recycle 0]
//               [--chromium /usr/bin/chromium]
#include "browser/pool.h"
#include "browser/process.h"
#include "core/log.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace gleaner;

namespace {

struct Args {
  int loads = 1000;
  int concurrency = 8;
  int processes = 2;
  int pages = 4;
  int recycle = 0;
  std::string chromium = "/usr/bin/chromium";
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string name = argv[i];
    std::string value = argv[i + 1];
    if (name == "--loads")
      a.loads = std::stoi(value);
    else if (name == "--concurrency")
      a.concurrency = std::stoi(value);
    else if (name == "--processes")
      a.processes = std::stoi(value);
    else if (name == "--pages")
      a.pages = std::stoi(value);
    else if (name == "--recycle")
      a.recycle = std::stoi(value);
    else if (name == "--chromium")
      a.chromium = value;
    else
      throw std::invalid_argument("unknown option " + name);
  }
  return a;
}

// Real pages kept beside the site tests (tests/sites/<site>/pages), each standing in for the URL
// it was captured from.
const std::vector<std::pair<std::string, std::string>> kPages = {
    {"https://www.google.com/search?q=google", "google/pages/serp/serp-parser_desktop_google.html"},
    {"https://www.google.com/search?q=dell+xps+13+buy",
     "google/pages/serp/serp-parser_desktop_dell-xps-13-buy.html"},
    {"https://www.google.com/search?q=top+hotels+london",
     "google/pages/serp/serp-parser_desktop_top-hotels-london.html"},
    {"https://www.youtube.com/watch?v=GJLlxj_dtq8",
     "youtube/pages/video/yta_watch_GJLlxj_dtq8_surface-go-review.html"},
    {"https://www.google.com/finance/quote/PETR4:BVMF?hl=pt-BR",
     "google/pages/finance/sisacao8_quote_PETR4-BVMF_ptBR.html"},
    {"https://www.google.com/maps/search/griffith",
     "google/pages/maps/cocli_search-dom_griffith_en_2026-03.html"},
};

std::string make_archive() {
  std::string dir = (fs::temp_directory_path() / "gleaner-bench-replay-XXXXXX").string();
  if (!::mkdtemp(dir.data())) throw std::runtime_error("cannot create a temporary directory");
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& [url, file] : kPages) {
    fs::path target = fs::path(dir) / fs::path(file).filename();
    fs::copy_file(fs::path(GLEANER_SITE_TESTS_DIR) / file, target);
    entries.push_back({{"match", "exact"}, {"url", url}, {"file", target.filename().string()}});
  }
  std::ofstream(fs::path(dir) / "index.json") << nlohmann::json{{"entries", entries}}.dump(2);
  return dir;
}

double mb(std::size_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

// PSS of every process tree of the pool, and the number of processes in them.
std::pair<std::size_t, std::size_t> pool_pss(const browser::Pool& pool) {
  std::size_t bytes = 0;
  std::size_t processes = 0;
  for (const auto& b : pool.state().browsers) {
    bytes += browser::process_group_pss_bytes(b.pid);
    processes += browser::process_group_members(b.pid).size();
  }
  return {bytes, processes};
}

void report(const char* label, const browser::Pool& pool) {
  auto [bytes, processes] = pool_pss(pool);
  std::cout << std::left << std::setw(34) << label << std::right << std::fixed
            << std::setprecision(1) << std::setw(9) << mb(bytes) << " MB PSS in " << processes
            << " processes\n";
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  std::cout << std::unitbuf;  // each line as it comes, also into a file
  log::set_level(log::Level::Warn);
  const std::string archive = make_archive();

  browser::PoolOptions options;
  options.chromium_path = args.chromium;
  options.processes = args.processes;
  options.pages_per_process = args.pages;
  options.recycle_after_pages = args.recycle;
  options.memory_limit_mb = 0;  // measure growth, do not act on it
  options.replay_dir = archive;
  options.lease_wait = Millis(120000);
  // Keep the health check's memory reading out of the way of the measurement.
  options.health_interval = Millis(60000);

  std::cout << "pool: " << args.processes << " processes x " << args.pages << " pages, "
            << args.loads << " loads, " << args.concurrency << " at a time, recycle after "
            << args.recycle << " (0: never)\n";
  int failures = 0;
  {
    browser::Pool pool(options);
    if (!pool.wait_ready(deadline_in(Millis(60000)))) {
      std::cerr << "the pool did not come up\n";
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::seconds(2));  // let start-up work settle
    report("idle, after start", pool);

    std::atomic<int> next{0};
    std::atomic<int> failed{0};
    std::atomic<std::size_t> peak{0};
    std::mutex latencies_mutex;
    std::vector<double> latencies;
    const auto start = SteadyClock::now();
    std::vector<std::thread> workers;
    for (int w = 0; w < args.concurrency; ++w) {
      workers.emplace_back([&] {
        for (int i; (i = next++) < args.loads;) {
          const auto begin = SteadyClock::now();
          try {
            browser::Lease lease = pool.lease({}, deadline_in(Millis(60000)));
            const auto& url = kPages[static_cast<std::size_t>(i) % kPages.size()].first;
            auto nav = lease->navigate(url, browser::WaitSpec::load(), deadline_in(Millis(60000)));
            if (nav.status != 200) ++failed;
          } catch (const std::exception& e) {
            ++failed;
            std::cerr << "load " << i << " failed: " << e.what() << "\n";
          }
          const double ms =
              std::chrono::duration<double, std::milli>(SteadyClock::now() - begin).count();
          std::lock_guard lock(latencies_mutex);
          latencies.push_back(ms);
        }
      });
    }
    // Sample the pool's PSS while it works.
    std::thread sampler([&] {
      while (next.load() < args.loads) {
        peak = std::max(peak.load(), pool_pss(pool).first);
        std::this_thread::sleep_for(Millis(500));
      }
    });
    for (auto& w : workers) w.join();
    sampler.join();
    const double seconds = std::chrono::duration<double>(SteadyClock::now() - start).count();
    failures = failed.load();

    std::sort(latencies.begin(), latencies.end());
    auto pct = [&](double p) {
      return latencies.empty() ? 0.0
                               : latencies[static_cast<std::size_t>(p * (latencies.size() - 1))];
    };
    std::cout << std::fixed << std::setprecision(1) << "loads: " << args.loads << " in " << seconds
              << " s (" << args.loads / seconds << "/s), failed " << failures << "; lease+load p50 "
              << pct(0.5) << " ms, p95 " << pct(0.95) << " ms\n";
    std::cout << std::left << std::setw(34) << "peak while loading" << std::right << std::setw(9)
              << mb(peak.load()) << " MB PSS\n";
    report("after the loads (contexts closed)", pool);
    std::this_thread::sleep_for(std::chrono::seconds(5));
    report("5 s later", pool);
    auto state = pool.state();
    std::cout << "pages served " << state.pages_served << ", recycles " << state.recycles
              << ", restarts " << state.restarts << "\n";
  }
  fs::remove_all(archive);
  return failures == 0 ? 0 : 1;
}
