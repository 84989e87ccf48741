// Kernels that launch kernels: the inner launch must not take the outer
// program's scratch area or its frame. This module links the runtime.
#include <cstdint>

#include "tcpu/kernel.hpp"
#include "tcpu/tcpu.h"

// Fills its scratch with a pattern that an inner launch must leave intact.
void inner_scratch(uint32_t* errors, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {
  auto* scratch = static_cast<uint32_t*>(tcpu::abi::programScratch());
  if (!scratch) {
    ++*errors;
    return;
  }
  for (uint32_t i = 0; i < 1024; ++i)
    scratch[i] = 0xdeadbeef;
}
TCPU_EXPORT_KERNEL(inner_scratch)

void outer_scratch(tcpuFunction inner, uint32_t* errors, uint32_t x, uint32_t, uint32_t, uint32_t,
                   uint32_t, uint32_t) {
  auto* mine = static_cast<uint32_t*>(tcpu::abi::programScratch());
  for (uint32_t i = 0; i < 64; ++i)
    mine[i] = x * 1000 + i;
  void* params[] = {&errors};
  // A larger scratch than ours, from inside our program.
  if (tcpuLaunchKernel(inner, 2, 1, 1, 1, 1, 1, 4096, nullptr, params, nullptr) != TCPU_SUCCESS)
    ++*errors;
  if (tcpu::abi::programScratch() != mine) ++*errors; // our frame is back
  for (uint32_t i = 0; i < 64; ++i)
    if (mine[i] != x * 1000 + i) ++*errors;
}
TCPU_EXPORT_KERNEL(outer_scratch)
