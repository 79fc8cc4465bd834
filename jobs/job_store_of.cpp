#include "jobs/job_store_of.h"

#include <unistd.h>

#include <array>

#include "core/error.h"
#include "store/sql_store.h"

namespace gleaner::jobs {

std::shared_ptr<store::JobStore> job_store_of(const Config& config, store::Store& store,
                                              const Clock& clock) {
  auto* sql = dynamic_cast<store::SqlStore*>(&store);
  if (!sql) throw Error(ErrorCode::Internal, "scraper jobs need the SQL store");
  std::array<char, 256> host{};
  std::string node = "node";
  if (gethostname(host.data(), host.size() - 1) == 0 && host[0] != '\0') node = host.data();
  return std::make_shared<store::JobStore>(sql->database(), store, clock,
                                           config.get_string("node_id", node),
                                           store::JobStoreLimits::from_config(config));
}

}  // namespace gleaner::jobs
