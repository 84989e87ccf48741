// Events: a timestamp taken when a stream reaches the point of the record.
#ifndef TCPU_SRC_EVENT_HPP
#define TCPU_SRC_EVENT_HPP

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace tcpu::detail {

class Event {
public:
  using Clock = std::chrono::steady_clock;

  explicit Event(bool timed) : timed_(timed) {}
  bool timed() const { return timed_; }

  // Starts a record; returns its number, to pass to complete() when reached.
  uint64_t beginRecord();
  void complete(uint64_t record);

  bool everRecorded() const;
  // Whether the latest record has been reached (true if never recorded, as CUDA).
  bool reached() const;
  // Waits for the latest record begun so far.
  void wait() const { waitFor(latestRecord()); }
  // The latest record begun (0 if none), and waiting until record `record` is reached.
  uint64_t latestRecord() const;
  void waitFor(uint64_t record) const;
  // The time of the latest completed record; only meaningful when reached().
  Clock::time_point time() const;

private:
  const bool timed_;
  mutable std::mutex mutex_;
  mutable std::condition_variable completed_;
  uint64_t records_ = 0;       // records begun
  uint64_t completedUpTo_ = 0; // highest record completed
  Clock::time_point time_{};
};

} // namespace tcpu::detail

#endif // TCPU_SRC_EVENT_HPP
