#include "core/cancel.h"

namespace gleaner {
namespace {

thread_local const CancelFlag* current = nullptr;

}  // namespace

CancelScope::CancelScope(const CancelFlag& flag) : outer_(current) {
  current = &flag;
}

CancelScope::~CancelScope() {
  current = outer_;
}

bool cancel_requested() {
  return current != nullptr && current->cancelled();
}

}  // namespace gleaner
