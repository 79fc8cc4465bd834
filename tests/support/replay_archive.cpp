#include "tests/support/replay_archive.h"

#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gleaner::testing {
namespace {

namespace fs = std::filesystem;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void write_all(const fs::path& path, const std::string& data) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << data;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

std::string gzip(const std::string& data) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK)
    throw std::runtime_error("zlib init failed");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

TempReplayArchive::TempReplayArchive() : index_({{"entries", nlohmann::json::array()}}) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = (fs::path(tmp && *tmp ? tmp : "/tmp") / "gleaner-replay-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory");
  dir_ = pattern;
}

TempReplayArchive::~TempReplayArchive() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

TempReplayArchive& TempReplayArchive::add(Entry entry) {
  ++count_;
  std::string name = entry.file_name;
  if (name.empty())
    name = entry.source.empty()
               ? "entry" + std::to_string(count_) + ".html"
               : std::to_string(count_) + "-" + fs::path(entry.source).filename().string();
  std::string content = entry.source.empty() ? entry.body : read_all(entry.source);
  if (entry.gzip) {
    content = gzip(content);
    name += ".gz";
  }
  write_all(fs::path(dir_) / name, content);
  nlohmann::json item = {{"match", entry.match}, {"url", entry.url}, {"file", name}};
  if (entry.status != 0) item["status"] = entry.status;
  if (!entry.headers.empty()) item["headers"] = entry.headers;
  index_["entries"].push_back(std::move(item));
  return *this;
}

TempReplayArchive& TempReplayArchive::page(const std::string& url, const std::string& html) {
  Entry entry;
  entry.url = url;
  entry.body = html;
  return add(std::move(entry));
}

TempReplayArchive& TempReplayArchive::file(const std::string& url, const std::string& source_path) {
  Entry entry;
  entry.url = url;
  entry.source = source_path;
  return add(std::move(entry));
}

TempReplayArchive& TempReplayArchive::unmatched(int status) {
  index_["unmatched"] = status;
  return *this;
}

std::shared_ptr<browser::ReplayArchive> TempReplayArchive::load() {
  write_all(fs::path(dir_) / "index.json", index_.dump(2));
  return std::make_shared<browser::ReplayArchive>(dir_);
}

}  // namespace gleaner::testing
