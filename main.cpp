// gleaner: one binary. `gleaner serve` runs the service; the other subcommands administer it
// without any HTTP exposure.
#include <pthread.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "api/openapi.h"
#include "api/server.h"
#include "api/service.h"
#include "core/config.h"
#include "core/error.h"
#include "core/heap.h"
#include "core/log.h"
#include "jobs/job_request.h"
#include "jobs/job_store_of.h"
#include "store/admin.h"
#include "store/store.h"

namespace {

constexpr const char* kUsage = R"(usage: gleaner <command> [options]

commands:
  serve [--port N] [--config FILE] [--replay DIR]
        Runs the service (default port 8080). Every configuration entry can also be set by an
        environment variable GLEANER_<ENTRY>; see docs/configuration.md.
        On the first start with an empty store it creates account "default" and prints its
        API key once on standard output.
  accounts|keys|credits|jobs ... [--config FILE]
        Administers accounts, API keys, credits and jobs (`jobs list`, `jobs stop ID`) in the
        configured store (entry `store`, GLEANER_STORE), whether or not the service runs;
        `gleaner accounts` alone lists the commands. Safe beside a running node.
  openapi
        Prints the OpenAPI document that GET /openapi.json serves; docs/openapi.json is this
        output (`build/gleaner openapi > docs/openapi.json`).
  help  Prints this text.
)";

/// Parses `--name value` pairs; unknown flags are an error.
bool parse_serve_args(const std::vector<std::string>& args, std::string& config_path,
                      std::vector<std::pair<std::string, nlohmann::json>>& set,
                      std::string& error) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (i + 1 >= args.size()) {
      error = "missing value after " + flag;
      return false;
    }
    const std::string& value = args[++i];
    if (flag == "--config") {
      config_path = value;
    } else if (flag == "--port") {
      try {
        set.emplace_back("port", std::stoi(value));
      } catch (const std::exception&) {
        error = "--port takes a number";
        return false;
      }
    } else if (flag == "--replay") {
      set.emplace_back("replay_dir", value);
    } else {
      error = "unknown option " + flag;
      return false;
    }
  }
  return true;
}

int serve(const std::vector<std::string>& args) {
  std::string config_path;
  std::vector<std::pair<std::string, nlohmann::json>> set;
  std::string error;
  if (!parse_serve_args(args, config_path, set, error)) {
    std::cerr << "gleaner serve: " << error << "\n" << kUsage;
    return 2;
  }

  // Signals are taken by one thread with sigwait, so no other thread is interrupted by them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  // Before any thread: the open files limit raised to its hard limit, glibc's mmap threshold
  // fixed (api/server.h).
  const long long descriptors = gleaner::api::prepare_process();

  try {
    gleaner::Config config = gleaner::Config::load(config_path);
    for (auto& [k, v] : set) config.set(k, v);
    gleaner::log::set_level(gleaner::log::parse_level(config.get_string("log_level", "info")));
    gleaner::log::set_format(gleaner::log::parse_format(config.get_string("log_format", "text")));
    gleaner::log::info("main") << "open files limit " << descriptors;
    // Before the service's threads: glibc's allocator over two arenas per core, unless
    // MALLOC_ARENA_MAX chose otherwise (core/heap.h).
    const long long arenas =
        config.get_int("malloc_arenas", 2 * std::max(1u, std::thread::hardware_concurrency()));
    if (arenas < 0) gleaner::Config::refuse("malloc_arenas", "must be 0 (glibc's default) or more");
    if (std::getenv("MALLOC_ARENA_MAX") == nullptr) {
      gleaner::limit_heap_arenas(static_cast<int>(arenas));
      gleaner::log::info("main") << "allocator arenas at most "
                                 << (arenas == 0 ? "glibc's default" : std::to_string(arenas));
    }
    const auto grace = gleaner::Millis(config.get_int("shutdown_grace_ms", 20000));

    gleaner::api::Service service(std::move(config));
    // First start on an empty store: an account to use at once, its key shown this one time.
    if (gleaner::store::bootstrap_first_account(*service.dependencies().store,
                                                service.dependencies().config, std::cout)) {
      std::cout.flush();
    }
    int port = service.bind();
    gleaner::log::info("main") << "gleaner listening on port " << port;

    std::thread signal_thread([&] {
      int sig = 0;
      sigwait(&signals, &sig);
      gleaner::log::info("main") << "received " << strsignal(sig) << ", shutting down (grace "
                                 << grace.count() << " ms)";
      service.shutdown(grace);
    });
    service.run();
    // run() returns after shutdown() stopped the server; make the signal thread return too if
    // the server stopped for another reason.
    pthread_kill(signal_thread.native_handle(), SIGTERM);
    signal_thread.join();
    gleaner::log::info("main") << "stopped";
    return 0;
  } catch (const std::exception& e) {
    gleaner::log::error("main") << "cannot start: " << gleaner::describe(e);
    return 1;
  }
}

/// `gleaner accounts|keys|credits|jobs ...`: store/admin.h on the configured store, opened as an
/// admin (it touches no reservation, so it may run beside a live node).
int administer(const std::string& command, std::vector<std::string> args) {
  std::string config_path;
  for (auto it = args.begin(); it != args.end();) {
    if (*it != "--config") {
      ++it;
      continue;
    }
    if (it + 1 == args.end()) {
      std::cerr << "gleaner: --config needs a file\n";
      return 2;
    }
    config_path = *(it + 1);
    it = args.erase(it, it + 2);
  }
  args.insert(args.begin(), command);
  if (args.size() < 2) {
    std::cerr << gleaner::store::admin_usage();
    return 2;
  }
  try {
    gleaner::Config config = gleaner::Config::load(config_path);
    gleaner::log::set_level(gleaner::log::parse_level(config.get_string("log_level", "warn")));
    auto store = gleaner::store::open_store(config, gleaner::SystemClock::instance(),
                                            gleaner::store::StoreRole::Admin);
    const auto job_store = gleaner::jobs::job_store_of(config, *store);
    gleaner::store::JobsAdmin jobs{*job_store, [](const gleaner::store::Job& job) {
                                     return gleaner::jobs::webhook_body(
                                         job, gleaner::jobs::event::kFinished,
                                         gleaner::SystemClock::instance().now());
                                   }};
    return gleaner::store::run_admin_command(args, *store, std::cout, std::cerr, &jobs);
  } catch (const std::exception& e) {
    std::cerr << "gleaner: cannot open the store: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  if (command == "serve") return serve(args);
  if (command == "openapi" && args.empty()) {
    std::cout << gleaner::api::openapi_document().dump(2) << '\n';
    return 0;
  }
  if (command == "accounts" || command == "keys" || command == "credits" || command == "jobs") {
    return administer(command, std::move(args));
  }
  std::cerr << "gleaner: unknown command '" << command << "'\n" << kUsage;
  return 2;
}
