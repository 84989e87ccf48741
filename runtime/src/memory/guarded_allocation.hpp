// Allocations whose end touches a page that faults on any access (a guard page), so that a
// kernel running off the end of a buffer dies at its first access past it, where the crash
// report can name the kernel, instead of overwriting the heap for something else to trip over
// later (TCPU_MEM_GUARD=1, TCPU_MEMALLOC_GUARD, `tcpu run`'s arrays).
//
// The data keeps the alignment asked for, so it ends `roundUp(bytes, alignment) - bytes` bytes
// before the guard: an overrun smaller than that padding is not caught (TCPU_CHECK=bounds is
// exact). There is no guard before the data: an underrun is not caught either. Each allocation
// is a mapping of its own (two entries in the kernel's table of mappings, whole pages): meant
// for debugging and for tools, not for many small buffers.
#ifndef TCPU_SRC_GUARDED_ALLOCATION_HPP
#define TCPU_SRC_GUARDED_ALLOCATION_HPP

#include <cstddef>
#include <cstdint>

#include "tcpu/status.hpp"

namespace tcpu::detail {

// Maps `bytes` (> 0) of zeroed memory aligned to `alignment` (a power of two no larger than a
// page), followed by a guard page; returns the data's address.
Expected<uintptr_t> allocateGuarded(size_t bytes, size_t alignment);

// Unmaps what allocateGuarded(bytes, alignment) returned at `address`, its guard included.
void releaseGuarded(uintptr_t address, size_t bytes, size_t alignment);

} // namespace tcpu::detail

#endif // TCPU_SRC_GUARDED_ALLOCATION_HPP
