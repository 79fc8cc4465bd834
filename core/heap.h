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

/// Caps the arenas glibc's allocator spreads the threads over (M_ARENA_MAX). Its default, 8 per
/// core, gives nearly each of the service's threads an arena of its own, and each arena keeps
/// the free memory between its live allocations: resident memory then rises for hours without a
/// leak (docs/benchmarks.md, "The long run"). Takes effect for arenas not yet made, so it is
/// called before the service starts its threads. 0 leaves glibc's default.
void limit_heap_arenas(int arenas);

}  // namespace gleaner
