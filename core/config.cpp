#include "core/config.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace gleaner {
namespace {

std::map<std::string, std::string> process_environment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string::npos || entry.rfind("GLEANER_", 0) != 0) continue;
    env.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return env;
}

}  // namespace

Config::Config(nlohmann::json file, std::map<std::string, std::string> env)
    : file_(std::move(file)), env_(std::move(env)) {
  if (file_.is_null()) file_ = nlohmann::json::object();
  if (!file_.is_object()) throw std::invalid_argument("the configuration file must hold an object");
}

Config Config::load(const std::string& path) {
  nlohmann::json file = nlohmann::json::object();
  if (!path.empty()) {
    std::ifstream in(path);
    if (!in) throw std::invalid_argument("cannot read configuration file " + path);
    try {
      file = nlohmann::json::parse(in, nullptr, true, /*ignore_comments=*/true);
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument("configuration file " + path + " is not valid JSON: " + e.what());
    }
  }
  return Config(std::move(file), process_environment());
}

Config Config::from_environment() {
  return Config(nlohmann::json::object(), process_environment());
}

void Config::refuse(const std::string& entry, const std::string& why) {
  throw std::invalid_argument("configuration entry '" + entry + "' (or " + env_name(entry) +
                              "): " + why);
}

std::string Config::env_name(const std::string& entry) {
  std::string name = "GLEANER_";
  for (char c : entry) name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

void Config::set(const std::string& entry, nlohmann::json value) {
  overrides_[entry] = std::move(value);
}

bool Config::has(const std::string& entry) const {
  return overrides_.contains(entry) || env_value(entry) || file_.contains(entry);
}

std::optional<std::string> Config::env_value(const std::string& entry) const {
  auto it = env_.find(env_name(entry));
  if (it == env_.end()) return std::nullopt;
  return it->second;
}

std::optional<nlohmann::json> Config::raw(const std::string& entry) const {
  if (auto it = overrides_.find(entry); it != overrides_.end()) return *it;
  if (file_.contains(entry)) return file_.at(entry);
  return std::nullopt;
}

std::string Config::get_string(const std::string& entry, const std::string& fallback) const {
  return get_optional_string(entry).value_or(fallback);
}

std::optional<std::string> Config::get_optional_string(const std::string& entry) const {
  if (overrides_.contains(entry) || !env_value(entry)) {
    auto v = raw(entry);
    if (!v || v->is_null()) return std::nullopt;
    if (!v->is_string()) refuse(entry, "expected a string");
    return v->get<std::string>();
  }
  return *env_value(entry);
}

long long Config::get_int(const std::string& entry, long long fallback) const {
  if (!overrides_.contains(entry)) {
    if (auto env = env_value(entry)) {
      try {
        std::size_t used = 0;
        long long v = std::stoll(*env, &used);
        if (used != env->size()) refuse(entry, "expected a whole number, got '" + *env + "'");
        return v;
      } catch (const std::logic_error&) {
        refuse(entry, "expected a whole number, got '" + *env + "'");
      }
    }
  }
  auto v = raw(entry);
  if (!v || v->is_null()) return fallback;
  if (!v->is_number_integer()) refuse(entry, "expected a whole number");
  return v->get<long long>();
}

double Config::get_double(const std::string& entry, double fallback) const {
  if (!overrides_.contains(entry)) {
    if (auto env = env_value(entry)) {
      try {
        std::size_t used = 0;
        double v = std::stod(*env, &used);
        if (used != env->size()) refuse(entry, "expected a number, got '" + *env + "'");
        return v;
      } catch (const std::logic_error&) {
        refuse(entry, "expected a number, got '" + *env + "'");
      }
    }
  }
  auto v = raw(entry);
  if (!v || v->is_null()) return fallback;
  if (!v->is_number()) refuse(entry, "expected a number");
  return v->get<double>();
}

bool Config::get_bool(const std::string& entry, bool fallback) const {
  if (!overrides_.contains(entry)) {
    if (auto env = env_value(entry)) {
      if (*env == "true" || *env == "1" || *env == "yes") return true;
      if (*env == "false" || *env == "0" || *env == "no" || env->empty()) return false;
      refuse(entry, "expected true or false, got '" + *env + "'");
    }
  }
  auto v = raw(entry);
  if (!v || v->is_null()) return fallback;
  if (!v->is_boolean()) refuse(entry, "expected true or false");
  return v->get<bool>();
}

std::vector<std::string> Config::get_string_list(const std::string& entry) const {
  std::vector<std::string> out;
  if (!overrides_.contains(entry)) {
    if (auto env = env_value(entry)) {
      std::istringstream lines(*env);
      for (std::string line; std::getline(lines, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty()) out.push_back(line);
      }
      return out;
    }
  }
  auto v = raw(entry);
  if (!v || v->is_null()) return out;
  if (!v->is_array()) refuse(entry, "expected a list of strings");
  for (const auto& item : *v) {
    if (!item.is_string()) refuse(entry, "expected a list of strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

nlohmann::json Config::get_json(const std::string& entry) const {
  if (!overrides_.contains(entry)) {
    if (auto env = env_value(entry)) {
      try {
        return nlohmann::json::parse(*env);
      } catch (const nlohmann::json::exception& e) {
        refuse(entry, std::string("expected JSON: ") + e.what());
      }
    }
  }
  return raw(entry).value_or(nlohmann::json());
}

}  // namespace gleaner
