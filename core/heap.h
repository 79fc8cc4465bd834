#pragma once
// The process's own memory as glibc's allocator sees it: what is allocated (live objects)
// against what the allocator holds from the system, and the resident set. Told apart, a leak
// (allocated grows) and fragmentation (only held and resident grow) are no longer one rising
// RSS line (the gauges of GET /metrics, docs/api.md).
#include <cstddef>

namespace gleaner {

struct HeapState {
  /// Bytes in live allocations, mmapped ones included.
  std::size_t allocated = 0;
  /// Bytes the allocator's arenas and mmapped chunks span (pages it returned with
  /// release_free_heap() still count: they are address space, not memory).
  std::size_t held = 0;
};

/// Sums every arena (each is locked in turn: a scrape's cost, not a request's).
HeapState heap_state();

/// The process's resident set in bytes (/proc/self/statm), 0 if it cannot be read.
std::size_t resident_bytes();

/// Returns the free pages of every arena to the system (malloc_trim): free memory left between
/// live allocations otherwise stays resident for as long as the process runs.
void release_free_heap();

}  // namespace gleaner
