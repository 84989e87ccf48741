// The empty kernel of the launch benchmark, shared by the tcpu kernel module
// and the hand-written OpenMP baseline so both run the same function.
#ifndef TCPU_BENCH_EMPTY_KERNEL_HPP
#define TCPU_BENCH_EMPTY_KERNEL_HPP

#include <cstdint>

namespace tcpu::bench {

inline void emptyKernel(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {}

} // namespace tcpu::bench

#endif // TCPU_BENCH_EMPTY_KERNEL_HPP
