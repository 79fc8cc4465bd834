#include "api/auth.h"
#include "api/routes/routes.h"
#include "browser/pool.h"
#include "store/jobs_store.h"

namespace gleaner::api {

void add_health_routes(Router& router, Dependencies& deps) {
  router.add("GET", "/health", [&deps](Request& request) {
    const browser::PoolState s = deps.pool->state();
    // Anyone may ask whether the service is up (load balancers hold no key). The per-browser
    // detail (process ids, pages each served) tells an outsider about the host, so it is shown
    // only with a valid key; a key that is given and not valid is a 401, as on every route.
    const bool detailed = !request.header("x-api-key").empty();
    if (detailed) authenticate(request, deps);
    Response r;
    // Degraded while no browser is up: requests would wait for one.
    const bool healthy = s.processes > 0 && !s.shutting_down;
    r.status = healthy ? 200 : 503;
    r.body = {{"status", s.shutting_down ? "shutting_down" : healthy ? "ok" : "starting"},
              {"pool",
               {{"processes", s.processes},
                {"busyPages", s.busy_pages},
                {"freePages", s.free_pages},
                {"restarts", s.restarts},
                {"recycles", s.recycles},
                {"pagesServed", s.pages_served}}}};
    // The store's disk: while it is low, new jobs and their rows are refused (docs/jobs.md
    // "Sizes"). How much is free tells about the host, so only with a key, as the browsers.
    if (deps.jobs && deps.jobs->limits().disk) {
      const store::DiskWatch& disk = *deps.jobs->limits().disk;
      nlohmann::json& storage = r.body["storage"] = {{"low", disk.low()}};
      if (detailed) {
        const auto free = disk.free_bytes();
        storage["freeBytes"] = free ? nlohmann::json(*free) : nlohmann::json();
        storage["minFreeBytes"] = disk.min_free();
      }
    }
    if (detailed) {
      nlohmann::json& browsers = r.body["pool"]["browsers"] = nlohmann::json::array();
      for (const auto& b : s.browsers) {
        browsers.push_back({{"pid", b.pid},
                            {"device", browser::device_name(b.device)},
                            {"ready", b.ready},
                            {"draining", b.draining},
                            {"busyPages", b.busy_pages},
                            {"warmPages", b.warm_pages},
                            {"pagesServed", b.pages_served}});
      }
    }
    return r;
  });
}

}  // namespace gleaner::api
