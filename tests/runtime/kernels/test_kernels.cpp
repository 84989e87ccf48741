// Kernels used by the runtime tests, built into a shared object with
// tcpu_add_kernel_module and loaded through tcpuModuleLoad.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>

#include "tcpu/kernel.hpp"
#include "typed_out.hpp"

namespace {

uint64_t linearIndex(uint32_t x, uint32_t y, uint32_t z, uint32_t gx, uint32_t gy) {
  return x + uint64_t{gx} * (y + uint64_t{gy} * z);
}

void bump(uint32_t* counter) {
  std::atomic_ref<uint32_t>(*counter).fetch_add(1);
}

} // namespace

// Counts each program's visits and checks num_programs against the expected grid.
void count_programs(uint32_t* hits, uint32_t* errors, uint32_t expectX, uint32_t expectY,
                    uint32_t expectZ, uint32_t x, uint32_t y, uint32_t z, uint32_t gx, uint32_t gy,
                    uint32_t gz) {
  if (gx != expectX || gy != expectY || gz != expectZ || x >= gx || y >= gy || z >= gz)
    bump(errors);
  bump(&hits[linearIndex(x, y, z, gx, gy)]);
}
TCPU_EXPORT_KERNEL(count_programs)

// Appends each program's linear index in the order programs run.
void record_order(uint64_t* order, uint64_t* cursor, uint32_t x, uint32_t y, uint32_t z,
                  uint32_t gx, uint32_t gy, uint32_t) {
  const uint64_t slot = std::atomic_ref<uint64_t>(*cursor).fetch_add(1);
  order[slot] = linearIndex(x, y, z, gx, gy);
}
TCPU_EXPORT_KERNEL(record_order)

// For grids too large to count per program: each (y, z) row is visited by its
// x == 0 program, and the last program marks the end.
void row_starts(uint32_t* rowHits, uint32_t* lastSeen, uint32_t x, uint32_t y, uint32_t z,
                uint32_t gx, uint32_t gy, uint32_t gz) {
  if (x == 0) bump(&rowHits[y + uint64_t{gy} * z]);
  if (x == gx - 1 && y == gy - 1 && z == gz - 1) bump(lastSeen);
}
TCPU_EXPORT_KERNEL(row_starts)

void empty(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {}
TCPU_EXPORT_KERNEL(empty)

// Checks that launches on one stream arrive in order: seq must follow last[stream].
void stream_sequence(uint32_t* last, uint32_t* violations, uint32_t* runs, uint32_t stream,
                     uint32_t seq, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {
  if (last[stream] + 1 != seq) bump(violations);
  last[stream] = seq;
  bump(&runs[stream]);
}
TCPU_EXPORT_KERNEL(stream_sequence)

// Fills the program's scratch with its id, reads it back, checks size and alignment.
void scratch_check(uint32_t* errors, uint32_t expectBytes, uint32_t x, uint32_t, uint32_t, uint32_t,
                   uint32_t, uint32_t) {
  auto* scratch = static_cast<uint32_t*>(tcpu::abi::programScratch());
  if (!scratch || tcpu::abi::programScratchBytes() != expectBytes ||
      reinterpret_cast<uintptr_t>(scratch) % 64 != 0) {
    bump(errors);
    return;
  }
  const uint32_t words = expectBytes / 4;
  for (uint32_t i = 0; i < words; ++i)
    scratch[i] = x ^ i;
  for (uint32_t i = 0; i < words; ++i)
    if (scratch[i] != (x ^ i)) bump(errors);
}
TCPU_EXPORT_KERNEL(scratch_check)

// Writes back every scalar it gets, so tests can check parameter passing.
void typed_params(TypedOut* out, int8_t a, int16_t b, int32_t c, int64_t d, uint64_t e, float f,
                  double g, bool h, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {
  *out = TypedOut{a, b, c, d, e, f, g, h};
}
TCPU_EXPORT_KERNEL(typed_params)

// Busy for `micros` microseconds: gives streams and events measurable work.
void spin(uint32_t micros, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(micros);
  while (std::chrono::steady_clock::now() < until) {
  }
}
TCPU_EXPORT_KERNEL(spin)

// Triton's tutorial 01 with BLOCK elements per program.
template <int BLOCK>
void vector_add(const float* a, const float* b, float* out, int32_t n, uint32_t pid, uint32_t,
                uint32_t, uint32_t, uint32_t, uint32_t) {
  const int64_t start = int64_t{pid} * BLOCK;
  for (int64_t i = start; i < start + BLOCK && i < n; ++i)
    out[i] = a[i] + b[i];
}
TCPU_EXPORT_KERNEL_AS(vector_add_1024, vector_add<1024>)

// A descriptor from a future, incompatible ABI: the runtime must refuse it.
extern "C" TCPU_KERNEL_EXPORT_ATTR const tcpuKernelDesc tcpu_kernel_desc_future_abi = {
    99, 0, "future_abi", nullptr, nullptr, 0};

// Waits until *gate is non-zero (at most 10 s, so a broken test cannot hang):
// lets tests hold a stream busy for exactly as long as they need. The gate is read with the
// builtin: std::atomic_ref<const T> is C++26, and libc++ 19 (macOS's library) cannot load through
// it.
void wait_gate(const uint32_t* gate, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {
  const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (__atomic_load_n(gate, __ATOMIC_SEQ_CST) == 0 && std::chrono::steady_clock::now() < limit) {
  }
}
TCPU_EXPORT_KERNEL(wait_gate)

// A parameter that needs 16-byte alignment: launches must deliver it aligned
// whatever the address the caller's value sits at.
struct alignas(16) Vec4 {
  float lanes[4];
};
void sum_vec4(float* out, Vec4 value, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {
  *out = value.lanes[0] + value.lanes[1] + value.lanes[2] + value.lanes[3];
}
TCPU_EXPORT_KERNEL(sum_vec4)

// Program `victim` (linear index) faults: kind 0 stores through a wild pointer, kind 1 divides
// an integer by zero; the others write 1. For the crash report's tests; not sanitized, so the
// fault reaches the CPU under UBSan too.
__attribute__((no_sanitize("undefined"))) void fault_at(int32_t* out, uint32_t victim,
                                                        uint32_t kind, uint32_t x, uint32_t y,
                                                        uint32_t z, uint32_t gx, uint32_t gy,
                                                        uint32_t) {
  const uint64_t index = linearIndex(x, y, z, gx, gy);
  if (index != victim) {
    out[index] = 1;
    return;
  }
  if (kind == 0) {
    volatile uintptr_t wild = 64; // through a variable: compilers warn of a constant address
    *reinterpret_cast<volatile int32_t*>(wild) = 1;
  } else {
    volatile int32_t zero = 0;
    out[index] = static_cast<int32_t>(index) / zero;
  }
}
TCPU_EXPORT_KERNEL(fault_at)

// fault_at described as a kernel whose programs wait for each other (TCPU_KERNEL_PROGRAMS_WAIT),
// as codegen describes one.
TCPU_EXPORT_KERNEL_WITH_FLAGS(fault_at_waiting, TCPU_KERNEL_PROGRAMS_WAIT, fault_at)

// fault_at behind a descriptor of ABI v1, which ends before `flags`: the runtime still reads it,
// and must not read past it (ASan's stage would see that).
struct KernelDescV1 {
  uint32_t abiVersion, numParams;
  const char* name;
  tcpuKernelEntry entry;
  const tcpuParamDesc* params;
};
extern "C" TCPU_KERNEL_EXPORT_ATTR const KernelDescV1 tcpu_kernel_desc_fault_at_v1 = {
    1, 3, "fault_at_v1", tcpu_kernel_desc_fault_at.entry, tcpu_kernel_desc_fault_at.params};
