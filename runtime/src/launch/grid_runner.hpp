// Runs every program of a grid once, over the configured worker threads.
#ifndef TCPU_SRC_GRID_RUNNER_HPP
#define TCPU_SRC_GRID_RUNNER_HPP

#include <cstdint>

#include "settings/settings.hpp"
#include "tcpu/kernel_abi.h"
#include "tcpu/tcpu.h"

namespace tcpu::detail {

struct GridLaunch {
  tcpuKernelEntry entry;
  void* const* params;
  uint32_t grid[3];
  uint64_t programs; // grid[0] * grid[1] * grid[2], > 0
  uint32_t scratchBytes;
  const tcpuKernelDesc* kernel; // what kernel service calls name in their reports
  const tcpuCancelFlag* cancel; // null, or the flag that cancels the launch
};

// Fails when a worker cannot get its scratch area (TCPU_ERROR_OUT_OF_MEMORY) or a
// program's device_assert failed (TCPU_ERROR_ASSERT) or a bounds-checked program skipped an
// access (TCPU_ERROR_ILLEGAL_ADDRESS); the other programs still run. Fails with
// TCPU_ERROR_CANCELLED when the cancel flag was raised: the ranges of programs not started by
// then are skipped, and the kernels' loops stop running ones.
Status runGrid(const GridLaunch& launch, const LaunchSettings& settings);

} // namespace tcpu::detail

#endif // TCPU_SRC_GRID_RUNNER_HPP
