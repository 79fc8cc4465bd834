#pragma once
// Configuration errors of the store's entries, worded like core/config.cpp's: the entry and the
// environment variable that overrides it are both named.
#include <stdexcept>
#include <string>

#include "core/config.h"

namespace gleaner::store {

[[noreturn]] inline void bad_entry(const std::string& entry, const std::string& why) {
  throw std::invalid_argument("configuration entry '" + entry + "' (or " + Config::env_name(entry) +
                              "): " + why);
}

}  // namespace gleaner::store
