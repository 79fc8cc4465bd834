#pragma once
// The service's configuration: one JSON file (`--config FILE`) whose entries can each be
// overridden by an environment variable GLEANER_<ENTRY IN UPPER CASE>. Each folder reads the
// entries it owns through the typed getters, with its own defaults; docs/configuration.md lists
// them all.
//
// Environment values are parsed by the type asked for: booleans `true`/`false`/`1`/`0`, numbers,
// lists one item per line, objects and lists of objects as JSON text.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gleaner {

class Config {
 public:
  Config() = default;
  /// `file` is the parsed configuration file (an object); `env` the environment to read overrides
  /// from (name → value). Throws gleaner::Error(Internal)-free std::invalid_argument on a bad file.
  Config(nlohmann::json file, std::map<std::string, std::string> env);

  /// Reads `path` (JSON) and the process environment. An empty path means no file.
  static Config load(const std::string& path);
  /// Only the process environment.
  static Config from_environment();

  /// Sets an entry (command-line flags such as --port and --replay, and tests).
  void set(const std::string& entry, nlohmann::json value);

  bool has(const std::string& entry) const;
  std::string get_string(const std::string& entry, const std::string& fallback) const;
  std::optional<std::string> get_optional_string(const std::string& entry) const;
  long long get_int(const std::string& entry, long long fallback) const;
  double get_double(const std::string& entry, double fallback) const;
  bool get_bool(const std::string& entry, bool fallback) const;
  std::vector<std::string> get_string_list(const std::string& entry) const;
  /// An object or list entry as JSON (environment value parsed as JSON); null when absent.
  nlohmann::json get_json(const std::string& entry) const;

  /// The environment variable that overrides `entry`: GLEANER_ + upper case.
  static std::string env_name(const std::string& entry);
  /// Throws std::invalid_argument naming the entry, the variable that overrides it, and why its
  /// value is refused: how every folder reports a bad entry.
  [[noreturn]] static void refuse(const std::string& entry, const std::string& why);

 private:
  std::optional<nlohmann::json> raw(const std::string& entry) const;
  std::optional<std::string> env_value(const std::string& entry) const;

  nlohmann::json file_ = nlohmann::json::object();
  nlohmann::json overrides_ = nlohmann::json::object();
  std::map<std::string, std::string> env_;
};

}  // namespace gleaner
