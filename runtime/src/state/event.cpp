#include "state/event.hpp"

namespace tcpu::detail {

uint64_t Event::beginRecord() {
  std::lock_guard lock(mutex_);
  return ++records_;
}

void Event::complete(uint64_t record) {
  const Clock::time_point now = Clock::now();
  {
    std::lock_guard lock(mutex_);
    if (record < completedUpTo_) return; // an older record finishing late changes nothing
    completedUpTo_ = record;
    time_ = now;
  }
  completed_.notify_all();
}

bool Event::everRecorded() const {
  std::lock_guard lock(mutex_);
  return records_ > 0;
}

bool Event::reached() const {
  std::lock_guard lock(mutex_);
  return completedUpTo_ >= records_;
}

uint64_t Event::latestRecord() const {
  std::lock_guard lock(mutex_);
  return records_;
}

void Event::waitFor(uint64_t record) const {
  std::unique_lock lock(mutex_);
  completed_.wait(lock, [&] { return completedUpTo_ >= record; });
}

Event::Clock::time_point Event::time() const {
  std::lock_guard lock(mutex_);
  return time_;
}

} // namespace tcpu::detail
