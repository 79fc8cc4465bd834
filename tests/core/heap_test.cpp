#include "core/heap.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

using namespace gleaner;

namespace {
constexpr std::size_t kMiB = 1024 * 1024;

bool sanitized() {
#if defined(__SANITIZE_ADDRESS__)
  return true;  // ASan's allocator replaces glibc's: mallinfo2 and malloc_trim see nothing
#else
  return false;
#endif
}
}  // namespace

TEST(Heap, AllocatedFollowsLiveAllocations) {
  if (sanitized()) GTEST_SKIP() << "glibc's allocator is not in use";
  const std::size_t before = heap_state().allocated;
  auto block = std::make_unique<char[]>(64 * kMiB);
  std::memset(block.get(), 1, 64 * kMiB);
  const HeapState during = heap_state();
  EXPECT_GE(during.allocated, before + 64 * kMiB);
  EXPECT_GE(during.held, during.allocated);
  block.reset();
  EXPECT_LT(heap_state().allocated, before + kMiB);
}

// Free memory between live allocations stays resident until it is returned: the slow RSS rise
// of a long run that is not a leak. release_free_heap() gives it back.
TEST(Heap, ReleaseReturnsFreeMemoryBetweenLiveAllocations) {
  if (sanitized()) GTEST_SKIP() << "glibc's allocator is not in use";
  constexpr std::size_t kBlock = 1024;
  constexpr std::size_t kCount = 96 * 1024;  // 96 MiB in small blocks
  std::vector<char*> blocks(kCount);
  for (auto& b : blocks) {
    b = static_cast<char*>(std::malloc(kBlock));
    std::memset(b, 1, kBlock);
  }
  // Keep one block in 64 alive: nothing is at the arena's top, so nothing is trimmed on free.
  for (std::size_t i = 0; i < kCount; ++i) {
    if (i % 64 != 0) {
      std::free(blocks[i]);
      blocks[i] = nullptr;
    }
  }
  const std::size_t resident_before = resident_bytes();
  release_free_heap();
  const std::size_t resident_after = resident_bytes();
  for (char* b : blocks) std::free(b);
  ASSERT_GT(resident_before, 0u);
  EXPECT_GT(resident_before, resident_after + 48 * kMiB)
      << "resident " << resident_before / kMiB << " MiB before, " << resident_after / kMiB
      << " MiB after";
}
