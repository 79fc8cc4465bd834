#include "browser/replay.h"

#include "core/error.h"
#include "core/http_header.h"
#include "core/log.h"

#include <zlib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace gleaner::browser {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void bad_archive(const std::string& directory, const std::string& why) {
  throw Error(ErrorCode::Internal, "the replay archive cannot be used",
              "replay archive " + directory + ": " + why);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Inflates gzip data (the gzip wrapper, not raw deflate: windowBits 16 + MAX_WBITS).
std::string gunzip(const std::string& compressed, const std::string& name) {
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) throw std::runtime_error("zlib init failed");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::string out;
  char buffer[64 * 1024];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    rc = inflate(&stream, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&stream);
      throw std::runtime_error(name + " is not valid gzip data");
    }
    out.append(buffer, sizeof buffer - stream.avail_out);
    if (rc == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) {
      inflateEnd(&stream);
      throw std::runtime_error(name + " is truncated gzip data");
    }
  }
  inflateEnd(&stream);
  return out;
}

ReplayEntry::Match parse_match(const std::string& name, const std::string& directory,
                               std::size_t index) {
  if (name == "exact") return ReplayEntry::Match::Exact;
  if (name == "prefix") return ReplayEntry::Match::Prefix;
  if (name == "regex") return ReplayEntry::Match::Regex;
  bad_archive(directory,
              "entry " + std::to_string(index) + ": match must be exact, prefix or regex");
}

bool has_header(const std::map<std::string, std::string>& headers, const std::string& name) {
  for (const auto& [key, value] : headers)
    if (lower(key) == name) return true;
  return false;
}

}  // namespace

std::string ReplayArchive::content_type_for(const std::string& file_name) {
  std::string name = lower(file_name);
  if (ends_with(name, ".gz")) name.resize(name.size() - 3);
  static const std::map<std::string, std::string> by_extension = {
      {"html", "text/html; charset=utf-8"},
      {"htm", "text/html; charset=utf-8"},
      {"json", "application/json; charset=utf-8"},
      {"js", "text/javascript; charset=utf-8"},
      {"mjs", "text/javascript; charset=utf-8"},
      {"css", "text/css; charset=utf-8"},
      {"xml", "text/xml; charset=utf-8"},
      {"rss", "application/rss+xml; charset=utf-8"},
      {"txt", "text/plain; charset=utf-8"},
      {"csv", "text/csv; charset=utf-8"},
      {"svg", "image/svg+xml"},
      {"png", "image/png"},
      {"jpg", "image/jpeg"},
      {"jpeg", "image/jpeg"},
      {"gif", "image/gif"},
      {"webp", "image/webp"},
      {"avif", "image/avif"},
      {"ico", "image/x-icon"},
      {"woff", "font/woff"},
      {"woff2", "font/woff2"},
      {"ttf", "font/ttf"},
      {"otf", "font/otf"},
      {"mp4", "video/mp4"},
      {"webm", "video/webm"},
      {"mp3", "audio/mpeg"},
      {"pdf", "application/pdf"},
      {"wasm", "application/wasm"},
  };
  auto dot = name.rfind('.');
  auto slash = name.find_last_of("/\\");
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return "application/octet-stream";
  auto it = by_extension.find(name.substr(dot + 1));
  return it == by_extension.end() ? "application/octet-stream" : it->second;
}

ReplayArchive::ReplayArchive(std::string directory) : directory_(std::move(directory)) {
  nlohmann::json index;
  try {
    index = nlohmann::json::parse(read_file(fs::path(directory_) / "index.json"));
  } catch (const std::exception& e) {
    bad_archive(directory_, std::string("index.json: ") + e.what());
  }
  if (!index.is_object() || !index.contains("entries") || !index["entries"].is_array())
    bad_archive(directory_, "index.json must be an object with an \"entries\" list");
  if (index.contains("unmatched")) {
    if (!index["unmatched"].is_number_integer())
      bad_archive(directory_, "\"unmatched\" must be an HTTP status");
    unmatched_status_ = index["unmatched"].get<int>();
  }
  const auto& list = index["entries"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& item = list[i];
    const std::string where = "entry " + std::to_string(i);
    try {
      ReplayEntry entry;
      entry.match = parse_match(item.value("match", std::string("exact")), directory_, i);
      entry.url = item.at("url").get<std::string>();
      entry.status = item.value("status", 200);
      if (item.contains("headers"))
        entry.headers = item["headers"].get<std::map<std::string, std::string>>();
      entry.file = item.at("file").get<std::string>();
      if (fs::path(entry.file).is_absolute())
        bad_archive(directory_, where + ": file must be relative to the archive");
      if (!fs::is_regular_file(fs::path(directory_) / entry.file))
        bad_archive(directory_, where + ": no file " + entry.file);
      if (!has_header(entry.headers, "content-type"))
        entry.headers["content-type"] = content_type_for(entry.file);
      std::optional<Regex> pattern;
      if (entry.match == ReplayEntry::Match::Regex) {
        std::string error;
        pattern = Regex::compile(entry.url, &error);
        if (!pattern) bad_archive(directory_, where + ": url is not an RE2 pattern: " + error);
      }
      entries_.push_back(std::move(entry));
      patterns_.push_back(std::move(pattern));
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      bad_archive(directory_, where + ": " + e.what());
    }
  }
}

bool ReplayArchive::matches(std::size_t index, const std::string& url) const {
  const ReplayEntry& entry = entries_[index];
  switch (entry.match) {
    case ReplayEntry::Match::Exact: return url == entry.url;
    case ReplayEntry::Match::Prefix: return url.compare(0, entry.url.size(), entry.url) == 0;
    case ReplayEntry::Match::Regex: return patterns_[index]->full_match(url);
  }
  return false;
}

std::shared_ptr<const std::string> ReplayArchive::body(std::size_t index) const {
  {
    std::lock_guard lock(bodies_mutex_);
    if (auto it = bodies_.find(index); it != bodies_.end()) return it->second;
  }
  // Read outside the lock: a large file must not hold up answers from other entries. Two threads
  // reading the same file at once both produce the same bytes; the first stored wins.
  const std::string& file = entries_[index].file;
  std::shared_ptr<const std::string> content;
  try {
    std::string data = read_file(fs::path(directory_) / file);
    if (ends_with(lower(file), ".gz")) data = gunzip(data, file);
    content = std::make_shared<const std::string>(std::move(data));
  } catch (const std::exception& e) {
    bad_archive(directory_, "entry " + std::to_string(index) + ": " + e.what());
  }
  std::lock_guard lock(bodies_mutex_);
  return bodies_.emplace(index, std::move(content)).first->second;
}

ReplayArchive::Answer ReplayArchive::answer(const std::string& url) const {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!matches(i, url)) continue;
    Answer answer;
    answer.entry = i;
    answer.response.status = entries_[i].status;
    answer.response.headers = entries_[i].headers;
    answer.response.body = *body(i);
    return answer;
  }
  Answer answer;
  answer.response.status = unmatched_status_;
  answer.response.headers["content-type"] = "text/plain; charset=utf-8";
  answer.response.body = "gleaner replay archive: no entry for " + url + "\n";
  return answer;
}

std::optional<Decision> ReplayArchive::decide(const InterceptedRequest& request) {
  Answer found = answer(request.url);
  {
    // One line per sub-resource: debug, so an operator's log shows requests, not resources.
    auto line = log::debug("replay");
    line << request.method << ' ' << request.url << " -> ";
    if (found.entry)
      line << "entry " << *found.entry << " (" << found.response.status << ", ";
    else
      line << "unmatched (" << found.response.status << ", ";
    line << found.response.body.size() << " bytes)";
  }
  std::string user_agent;
  for (const auto& [name, value] : request.headers) {
    if (http_header::same_name(name, "User-Agent")) user_agent = value;
  }
  {
    std::lock_guard lock(requests_mutex_);
    requests_.push_back(
        {request.url, request.method, found.entry, found.response.status, std::move(user_agent)});
    if (requests_.size() > kMaxRecorded) requests_.pop_front();
  }
  return Decision(std::move(found.response));
}

std::vector<ReplayRequest> ReplayArchive::requests() const {
  std::lock_guard lock(requests_mutex_);
  return {requests_.begin(), requests_.end()};
}

void ReplayArchive::clear_requests() {
  std::lock_guard lock(requests_mutex_);
  requests_.clear();
}

}  // namespace gleaner::browser
