#include "launch/grid_runner.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>

#include "launch/crash_report.hpp"
#include "launch/kernel_services.hpp"
#include "launch/recent_launches.hpp"
#include "state/cancel_flag.hpp"

namespace tcpu::detail {
namespace {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

using ScratchBuffer = std::unique_ptr<void, FreeDeleter>;

ScratchBuffer allocateScratch(uint32_t bytes) {
  return ScratchBuffer(std::aligned_alloc(64, (bytes + 63u) & ~63u));
}

// False when the scratch area could not be allocated (the range did not run). A cancelled
// launch's ranges are skipped (true: nothing failed).
bool runRange(const GridLaunch& launch, uint64_t begin, uint64_t end, KernelFailures& failures) {
  if (cancelRaised(launch.cancel)) return true;
  // Each worker keeps one scratch buffer and reuses it across launches. A
  // launch made from inside a kernel (nested) must not replace the buffer
  // its caller is using, so it gets one of its own.
  thread_local ScratchBuffer reused;
  thread_local uint32_t capacity = 0;
  thread_local int depth = 0;
  tcpuLaunchFrame frame{{launch.grid[0], launch.grid[1], launch.grid[2]}, 0, nullptr, 0};
  ScratchBuffer nested;
  if (launch.scratchBytes > 0) {
    if (depth > 0) {
      nested = allocateScratch(launch.scratchBytes);
      frame.scratch = nested.get();
    } else {
      if (launch.scratchBytes > capacity) {
        reused = allocateScratch(launch.scratchBytes);
        capacity = reused ? launch.scratchBytes : 0;
      }
      frame.scratch = reused.get();
    }
    if (!frame.scratch) return false;
    frame.scratchBytes = launch.scratchBytes;
  }
  const LaunchScope scope(failures, launch.kernel, frame.grid, begin, end, launch.cancel);
  ++depth;
  launch.entry(launch.params, begin, end, &frame);
  --depth;
  return true;
}

Status scratchFailure(const GridLaunch& launch) {
  return Status(TCPU_ERROR_OUT_OF_MEMORY,
                concat("cannot allocate sharedMemBytes=", launch.scratchBytes,
                       " of scratch for a worker thread"));
}

Status runPrograms(const GridLaunch& launch, const LaunchSettings& settings);

} // namespace

Status runGrid(const GridLaunch& launch, const LaunchSettings& settings) {
  recordLaunch(launch.kernel ? launch.kernel->name : nullptr, launch.grid);
  Status status = runPrograms(launch, settings);
  // Checked after the programs, so that a flag raised while the last ones ran is not lost.
  if (cancelRaised(launch.cancel))
    return Status(TCPU_ERROR_CANCELLED, "cancelled: its cancel flag was raised");
  return status;
}

namespace {

// The programs of runGrid, over the worker threads.
Status runPrograms(const GridLaunch& launch, const LaunchSettings& settings) {
  installCrashReport(); // once; afterwards one load of a flag
  const uint64_t programs = launch.programs;
  KernelFailures failures;
  const int threads =
      static_cast<int>(std::min<uint64_t>(static_cast<uint64_t>(settings.numThreads), programs));
  if (threads <= 1) { // serial fast path: no parallel region at all
    if (!runRange(launch, 0, programs, failures)) return scratchFailure(launch);
    return failures.status();
  }

  // Set only on failure, so the common path adds no reduction to the region.
  std::atomic<bool> failed{false};
  if (settings.schedule == TCPU_SCHEDULE_STATIC && settings.chunk == 0) {
    // Equal contiguous shares, one entry call per thread: the cheapest region
    // OpenMP has (no loop dispatch), since the shares are known up front.
    const uint64_t share = programs / static_cast<uint64_t>(threads);
    const uint64_t extra = programs % static_cast<uint64_t>(threads);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int part = 0; part < threads; ++part) {
      const auto index = static_cast<uint64_t>(part);
      const uint64_t begin = index * share + std::min(index, extra);
      if (!runRange(launch, begin, begin + share + (index < extra ? 1 : 0), failures))
        failed.store(true, std::memory_order_relaxed);
    }
    return failed.load() ? scratchFailure(launch) : failures.status();
  }

  if (settings.schedule == TCPU_SCHEDULE_GUIDED || settings.schedule == TCPU_SCHEDULE_DYNAMIC) {
    // Self-scheduling over ranges, each run as one entry call: a worker takes `chunk` programs
    // (dynamic), or half its share of the programs left, at least `chunk` (guided), until none
    // are left. A worker that was held up (a descheduled vCPU) delays the launch by one range,
    // not by a whole static share. OpenMP's own loops over parts of `chunk` programs cost far
    // more per part than this counter: its guided loop over one-program parts took 6 ms for a
    // million empty programs, against 2.5 us here.
    const uint64_t least = std::max<uint64_t>(settings.chunk, 1);
    const uint64_t divisor =
        settings.schedule == TCPU_SCHEDULE_GUIDED ? 2 * static_cast<uint64_t>(threads) : 0;
    std::atomic<uint64_t> next{0};
#pragma omp parallel num_threads(threads)
    {
      uint64_t begin = next.load(std::memory_order_relaxed);
      while (begin < programs) {
        const uint64_t left = programs - begin;
        const uint64_t take = std::min(left, divisor ? std::max(least, left / divisor) : least);
        // On failure begin becomes the counter's value, and the range is worked out again.
        if (!next.compare_exchange_weak(begin, begin + take, std::memory_order_relaxed)) continue;
        if (!runRange(launch, begin, begin + take, failures))
          failed.store(true, std::memory_order_relaxed);
        begin = next.load(std::memory_order_relaxed);
      }
    }
    return failed.load() ? scratchFailure(launch) : failures.status();
  }

  // Static with a chunk: parts of `chunk` programs (an entry call each), dealt round-robin.
  const uint64_t chunk = settings.chunk;
  const uint64_t parts = (programs - 1) / chunk + 1;
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (uint64_t part = 0; part < parts; ++part) {
    const uint64_t begin = part * chunk;
    // min() on the remaining count: begin + chunk may wrap near 2^64.
    if (!runRange(launch, begin, begin + std::min(chunk, programs - begin), failures))
      failed.store(true, std::memory_order_relaxed);
  }
  return failed.load() ? scratchFailure(launch) : failures.status();
}

} // namespace

} // namespace tcpu::detail
