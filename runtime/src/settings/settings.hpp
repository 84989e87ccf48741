// Launch settings shared by all launches: worker threads, schedule, hooks; and whether
// tcpuMemAlloc guards every allocation (TCPU_MEM_GUARD).
// Read on every launch or allocation, so the hot fields are atomics.
#ifndef TCPU_SRC_SETTINGS_HPP
#define TCPU_SRC_SETTINGS_HPP

#include <atomic>
#include <cstdint>
#include <mutex>

#include "tcpu/kernel_abi.h"
#include "tcpu/status.hpp"

namespace tcpu::detail {

// The default schedule: guided (grid_runner.cpp). On the GPU host's 16-vCPU Xeon it ran the
// fp32 matmul tutorial at n = 1024 and 2048 a median 1.27x faster than static shares at 8 and 16
// threads (1.03-1.88x per round): a held-up vCPU delays a launch by one small range, not by a
// whole share. On 2 vCPUs it was within noise of static but for 1024 small programs of vector
// add (bench/RESULTS.md, 2026-11-28).
constexpr tcpuSchedule kDefaultSchedule = TCPU_SCHEDULE_GUIDED;

// The schedule of a kernel with TCPU_KERNEL_PROGRAMS_WAIT where none was chosen: runs of 16
// programs in launch order. The layer norm tutorial's backward pass takes a lock per row modulo
// GROUP_SIZE_M; with contiguous shares, two threads on rows congruent modulo the group wait on
// one lock, and stay in that lockstep. Runs of 16 keep the programs running at once neighbours,
// as on a GPU, and span the 16 lock words of one cache line (runs of 1 put two threads on one
// line). 4096 x 1024 on the GPU host's 16-vCPU Xeon (AOT, three rounds): 51-54 against 38-45
// GB/s guided at 8 threads, 23-29 against 20-22 at 4, 76-84 against 64-85 at 16; on 2 vCPUs a
// median 4.2 against 5.3 ms guided in one sitting, and the same median but no slow mode (at
// least 11.0 GB/s, against 7.2 guided) in another (bench/RESULTS.md, 2026-11-28).
constexpr tcpuSchedule kWaitingSchedule = TCPU_SCHEDULE_DYNAMIC;
constexpr uint32_t kWaitingChunk = 16;

struct LaunchSettings {
  int numThreads = 1;
  tcpuSchedule schedule = kDefaultSchedule;
  uint32_t chunk = 0;
  bool scheduleChosen = false; // by tcpuSetSchedule or TCPU_SCHEDULE

  // These settings for a launch of a kernel with descriptor flags `flags`: the schedule for
  // kernels whose programs wait, where none was chosen.
  LaunchSettings forKernel(uint32_t flags) const;
};

struct LaunchHooks {
  tcpuLaunchHook enter = nullptr;
  tcpuLaunchHook exit = nullptr;
  void* userData = nullptr;
};

class Settings {
public:
  // Reads TCPU_NUM_THREADS / OMP_NUM_THREADS / TCPU_SCHEDULE / TCPU_MEM_GUARD.
  Status loadEnvironment();

  // TCPU_MEM_GUARD: every tcpuMemAlloc allocation ends at a guard page. Read once by tcpuInit,
  // so that an allocation costs no look-up of the environment.
  bool guardAllocations() const { return guardAllocations_.load(std::memory_order_relaxed); }

  LaunchSettings launchSettings() const;
  int numThreads() const;
  // 0 restores the default from the environment / core count.
  void setNumThreads(int numThreads);
  void setSchedule(tcpuSchedule schedule, uint32_t chunk);
  // TCPU_SCHEDULE's schedule where it was set, else the default (the kernel's own, forKernel).
  void restoreDefaultSchedule();

  void setHooks(const LaunchHooks& hooks);
  // False when none are set: one relaxed load on the launch path.
  bool hasHooks() const { return hasHooks_.load(std::memory_order_acquire); }
  LaunchHooks hooks() const;

private:
  // A schedule, its chunk and whether it was chosen (not the default), in one word: a launch
  // reads all three with one load.
  static constexpr uint64_t kChosen = uint64_t{1} << 63;
  static uint64_t packSchedule(tcpuSchedule schedule, uint32_t chunk, bool chosen) {
    return (chosen ? kChosen : 0) | (static_cast<uint64_t>(schedule) << 32) | chunk;
  }

  std::atomic<int> defaultThreads_{1};
  std::atomic<int> explicitThreads_{0}; // set by tcpuSetNumThreads; 0 = use the default
  std::atomic<uint64_t> schedule_{packSchedule(kDefaultSchedule, 0, false)};
  std::atomic<bool> explicitSchedule_{
      false}; // set by tcpuSetSchedule: the environment no longer applies
  // TCPU_SCHEDULE's schedule (chosen), else the default: what restoreDefaultSchedule goes back to.
  std::atomic<uint64_t> environmentSchedule_{packSchedule(kDefaultSchedule, 0, false)};
  std::atomic<bool> guardAllocations_{false};
  mutable std::mutex hooksMutex_;
  LaunchHooks hooks_;
  std::atomic<bool> hasHooks_{false};
};

// Parses TCPU_SCHEDULE's value: "static", "dynamic,16", "guided,4".
Expected<std::pair<tcpuSchedule, uint32_t>> parseSchedule(const std::string& text);

} // namespace tcpu::detail

#endif // TCPU_SRC_SETTINGS_HPP
