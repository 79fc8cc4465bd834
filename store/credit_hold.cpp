#include "store/credit_hold.h"

#include <exception>
#include <utility>

#include "core/log.h"

namespace gleaner::store {

CreditHold::CreditHold(Store& store, std::int64_t account_id, const std::string& endpoint,
                       std::int64_t cost, const std::string& request_id)
    : store_(&store), reservation_(store.reserve(account_id, endpoint, cost, request_id)) {}

CreditHold::CreditHold(Store& store, Reservation reservation)
    : store_(&store), reservation_(std::move(reservation)) {}

CreditHold::CreditHold(CreditHold&& other) noexcept
    : store_(other.store_), reservation_(std::exchange(other.reservation_, std::nullopt)) {}

CreditHold::~CreditHold() {
  if (!reservation_) return;
  try {
    store_->release(*reservation_);
  } catch (const std::exception& e) {
    log::error("store") << "request " << reservation_->request_id
                        << ": could not release its credits now (they return when the "
                           "reservation expires): "
                        << e.what();
  }
}

// Settled only once the store call returns: if it throws, the destructor releases. That is safe
// even when a commit did land (its reply lost): release gives credits back only while the
// reservation row still exists, and a landed commit deleted it.
bool CreditHold::commit() {
  if (!reservation_) return false;
  const bool charged = store_->commit(*reservation_);
  reservation_.reset();
  return charged;
}

bool CreditHold::release() {
  if (!reservation_) return false;
  const bool released = store_->release(*reservation_);
  reservation_.reset();
  return released;
}

}  // namespace gleaner::store
