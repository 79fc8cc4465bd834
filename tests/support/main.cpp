// main() of Chromium test binaries: GoogleTest, plus stopping the shared browser pool after the
// last test so that no Chromium outlives the run.
#include "tests/support/chromium.h"

#include "core/log.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

class SharedPoolEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { gleaner::testing::stop_shared_pool(); }
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // GLEANER_TEST_LOG=debug shows every intercepted request and DevTools hiccup of a failing run.
  if (const char* level = std::getenv("GLEANER_TEST_LOG")) {
    gleaner::log::set_level(gleaner::log::parse_level(level));
  }
  ::testing::AddGlobalTestEnvironment(new SharedPoolEnvironment);
  return RUN_ALL_TESTS();
}
