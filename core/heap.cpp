#include "core/heap.h"

#include <malloc.h>
#include <unistd.h>

#include <fstream>

namespace gleaner {

HeapState heap_state() {
  const struct mallinfo2 info = ::mallinfo2();
  return {info.uordblks + info.hblkhd, info.arena + info.hblkhd};
}

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0;
  std::size_t resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

void release_free_heap() {
  ::malloc_trim(0);
}

void limit_heap_arenas(int arenas) {
  if (arenas > 0) ::mallopt(M_ARENA_MAX, arenas);
}

}  // namespace gleaner
