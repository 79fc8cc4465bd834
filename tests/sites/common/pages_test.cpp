// The real pages copied into the project (tests/sites/<site>/pages, scripts/copy-page.py) are the
// pages their provenance names: every file has its row in the site's provenance.json, every row
// its file, and each file's git blob hash is the one recorded, so a page edited by hand (or
// rewritten by an editor's line endings) fails here.
#include "tests/support/pages.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace gleaner::testing {
namespace {

namespace fs = std::filesystem;

// git hash-object: the SHA-1 of "blob <size>\0<content>", in hex.
std::string blob_hash(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string content = ss.str();
  const std::string object = "blob " + std::to_string(content.size()) + '\0' + content;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(object.data(), object.size(), digest, &n, EVP_sha1(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < n; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xF];
  }
  return hex;
}

TEST(Pages, BlobHashOfAKnownObject) {
  // `printf 'hello\n' | git hash-object --stdin`
  const fs::path tmp = fs::temp_directory_path() / "gleaner-pages-test-hello.txt";
  std::ofstream(tmp, std::ios::binary) << "hello\n";
  EXPECT_EQ(blob_hash(tmp), "ce013625030ba8dba906f756967f9e9ca394464a");
  fs::remove(tmp);
}

TEST(Pages, EveryCopiedPageIsThePageItsProvenanceNames) {
  int sites = 0;
  for (const auto& site :
       fs::directory_iterator(std::string(GLEANER_SOURCE_DIR) + "/tests/sites")) {
    const fs::path pages = site.path() / "pages";
    if (!fs::is_directory(pages)) continue;
    ++sites;
    SCOPED_TRACE(pages.string());
    std::set<std::string> files;
    for (const auto& f : fs::recursive_directory_iterator(pages)) {
      if (f.is_regular_file() && f.path().filename() != "provenance.json") {
        files.insert(fs::relative(f.path(), pages).generic_string());
      }
    }
    std::ifstream in(pages / "provenance.json");
    ASSERT_TRUE(in) << "no provenance.json";
    const nlohmann::json manifest = nlohmann::json::parse(in);
    std::set<std::string> listed;
    for (const nlohmann::json& row : manifest.at("pages")) {
      const std::string file = row.at("file").get<std::string>();
      SCOPED_TRACE(file);
      listed.insert(file);
      for (const char* key : {"repository", "path", "commit", "blob"}) {
        EXPECT_FALSE(row.value(key, "").empty()) << key;
      }
      ASSERT_TRUE(fs::exists(pages / file));
      EXPECT_EQ(blob_hash(pages / file), row.at("blob").get<std::string>());
    }
    EXPECT_EQ(files, listed) << "a page without its provenance, or a row without its page";
  }
  EXPECT_GE(sites, 12);
}

}  // namespace
}  // namespace gleaner::testing
