#include "core/ids.h"

#include <gtest/gtest.h>

#include <set>

#include "core/regex.h"

using namespace gleaner;

TEST(Ids, UuidIsVersion4AndUnique) {
  std::set<std::string> seen;
  const Regex form("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  for (int i = 0; i < 200; ++i) {
    auto id = new_uuid();
    EXPECT_TRUE(form.full_match(id)) << id;
    EXPECT_TRUE(seen.insert(id).second);
  }
}

TEST(Ids, KnownDigests) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // RFC 4231 test case 2.
  EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(random_hex(16).size(), 32u);
  EXPECT_TRUE(constant_time_equal("abc", "abc"));
  EXPECT_FALSE(constant_time_equal("abc", "abd"));
  EXPECT_FALSE(constant_time_equal("abc", "ab"));
}
