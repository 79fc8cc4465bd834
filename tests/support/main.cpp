// main() of Chromium test binaries: GoogleTest, plus stopping the shared browser pool after the
// last test so that no Chromium outlives the run.
#include "tests/support/chromium.h"

#include <gtest/gtest.h>

namespace {

class SharedPoolEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { gleaner::testing::stop_shared_pool(); }
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new SharedPoolEnvironment);
  return RUN_ALL_TESTS();
}
