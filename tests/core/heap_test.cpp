#include "core/heap.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <latch>
#include <memory>
#include <string>
#include <thread>
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
// The arenas glibc's allocator has made: malloc_info writes one <heap nr="..."> for each.
std::size_t arena_count() {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  malloc_info(0, out);
  std::fclose(out);
  const std::string info(text, size);
  std::free(text);
  std::size_t count = 0;
  for (auto at = info.find("<heap nr="); at != std::string::npos;
       at = info.find("<heap nr=", at + 1))
    ++count;
  return count;
}

// Starts `threads` threads that each allocate and then wait for all the others, so that all of
// them hold an arena at once (a thread takes one at its first allocation; an ended thread's
// arena goes to the next new thread), and counts the arenas then.
std::size_t arenas_with_threads_at_once(int threads) {
  std::latch allocated(threads);
  std::latch counted(1);
  std::vector<std::thread> running;
  for (int i = 0; i < threads; ++i) {
    running.emplace_back([&] {
      void* block = std::malloc(256);
      std::memset(block, 1, 256);
      allocated.count_down();
      counted.wait();
      std::free(block);
    });
  }
  allocated.wait();
  const std::size_t count = arena_count();
  counted.count_down();
  for (auto& t : running) t.join();
  return count;
}
}  // namespace

// Each check runs in a fresh process of its own (threadsafe death tests run the binary again):
// arenas that earlier tests' threads made in this process would stay.
TEST(Heap, ThreadsShareTheArenasTheLimitAllows) {
  if (sanitized()) GTEST_SKIP() << "glibc's allocator is not in use";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        limit_heap_arenas(2);
        std::exit(arenas_with_threads_at_once(16) == 2 ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
  // Without the limit the same threads get more (glibc's default: 8 per core).
  EXPECT_EXIT(std::exit(arenas_with_threads_at_once(16) > 2 ? 0 : 1), testing::ExitedWithCode(0),
              "");
}

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
