#pragma once
// A reservation that gives its credits back unless committed: the caller commits only after a
// 200 with status ok, and every other way out of the request (an exception, an early return,
// a client that went away) releases the credits when the hold goes out of scope.
#include <optional>

#include "store/store.h"

namespace gleaner::store {

class CreditHold {
 public:
  /// Reserves `cost` credits for `request_id` (see Store::reserve, which may throw
  /// InsufficientCredits).
  CreditHold(Store& store, std::int64_t account_id, const std::string& endpoint, std::int64_t cost,
             const std::string& request_id);
  /// Takes over an existing reservation.
  CreditHold(Store& store, Reservation reservation);
  CreditHold(CreditHold&& other) noexcept;
  CreditHold& operator=(CreditHold&&) = delete;
  CreditHold(const CreditHold&) = delete;
  CreditHold& operator=(const CreditHold&) = delete;
  /// Releases the credits if neither commit() nor release() ran. Never throws: a failure is
  /// logged, and the reservation's expiry still returns the credits.
  ~CreditHold();

  /// Charges the reservation (once). Returns what Store::commit returned.
  bool commit();
  /// Gives the credits back now rather than at the end of the scope.
  bool release();

  /// The reservation; valid until commit() or release() settled it.
  const Reservation& reservation() const { return *reservation_; }
  bool settled() const { return !reservation_.has_value(); }

 private:
  Store* store_;
  std::optional<Reservation> reservation_;  ///< empty once committed, released or moved from
};

}  // namespace gleaner::store
