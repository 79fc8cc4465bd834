#pragma once
// The job tables on the service's store: the API's routes and the worker share them.
#include <memory>

#include "core/config.h"
#include "store/jobs_store.h"
#include "store/store.h"

namespace gleaner::jobs {

/// A JobStore over the same database as `store` (which must be the SQL store open_store makes),
/// with this node's id (entry `node_id`, else the host name, as store/ names its reservations)
/// and the limits of entries `max_row_bytes`, `account_stored_bytes_quota`, `min_free_disk_bytes`.
/// `store` must outlive the result.
std::shared_ptr<store::JobStore> job_store_of(const Config& config, store::Store& store,
                                              const Clock& clock = SystemClock::instance());

}  // namespace gleaner::jobs
