// Writing tcpu kernels in C++, compiled by any C++20 compiler into a shared
// object that tcpuModuleLoad opens.
//
//   void add(const float* x, const float* y, float* out, int32_t n,
//            uint32_t px, uint32_t py, uint32_t pz, uint32_t gx, uint32_t gy, uint32_t gz) {...}
//   TCPU_EXPORT_KERNEL(add)
//
// exports the descriptor `tcpu_kernel_desc_add`: the parameter list, deduced
// from the C++ types, and an entry trampoline that unpacks kernelParams once
// and runs a range of programs with the kernel inlined into the loop.
// TCPU_EXPORT_KERNEL_AS(name, function) names an instantiation of a template:
//   TCPU_EXPORT_KERNEL_AS(matmul_64x64, matmul<64, 64>)
// TCPU_EXPORT_KERNEL_WITH_FLAGS(name, flags, function) also sets the descriptor's flags, which
// no compiler derives from a C++ kernel's body (kernel_abi.h): a kernel whose programs wait for
// each other (a spin lock, a turn) says so, and the runtime deals its programs in launch order:
//   TCPU_EXPORT_KERNEL_WITH_FLAGS(accumulate, TCPU_KERNEL_PROGRAMS_WAIT, accumulate)
#ifndef TCPU_KERNEL_HPP
#define TCPU_KERNEL_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tcpu/kernel_abi.h"

// Everything here stays private to the module that includes it: each module
// has its own copy (g++ would otherwise make these "unique" symbols that keep
// a module mapped after dlclose).
#pragma GCC visibility push(hidden)

namespace tcpu::abi {

// Element and scalar types. Kernel-language types (fp16 wrappers, ...)
// specialize DataTypeTrait.
template <class T>
struct DataTypeTrait {
  static constexpr tcpuDataType value = [] {
    if constexpr (std::is_same_v<T, bool>)
      return TCPU_TYPE_I1;
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      switch (sizeof(T)) {
      case 1:
        return TCPU_TYPE_I8;
      case 2:
        return TCPU_TYPE_I16;
      case 4:
        return TCPU_TYPE_I32;
      case 8:
        return TCPU_TYPE_I64;
      default:
        return TCPU_TYPE_UNKNOWN;
      }
    } else if constexpr (std::is_integral_v<T>) {
      switch (sizeof(T)) {
      case 1:
        return TCPU_TYPE_U8;
      case 2:
        return TCPU_TYPE_U16;
      case 4:
        return TCPU_TYPE_U32;
      case 8:
        return TCPU_TYPE_U64;
      default:
        return TCPU_TYPE_UNKNOWN;
      }
    } else if constexpr (std::is_same_v<T, float>)
      return TCPU_TYPE_FP32;
    else if constexpr (std::is_same_v<T, double>)
      return TCPU_TYPE_FP64;
    else
      return TCPU_TYPE_UNKNOWN;
  }();
};

template <class T>
constexpr tcpuParamDesc paramDescOf() {
  using V = std::remove_cv_t<T>;
  if constexpr (std::is_pointer_v<V>) {
    using Element = std::remove_cv_t<std::remove_pointer_t<V>>;
    return {TCPU_TYPE_PTR, DataTypeTrait<Element>::value, sizeof(void*), alignof(void*), nullptr};
  } else {
    static_assert(std::is_trivially_copyable_v<V>, "kernel parameters must be trivially copyable");
    return {DataTypeTrait<V>::value, TCPU_TYPE_UNKNOWN, sizeof(V), alignof(V), nullptr};
  }
}

template <class F>
struct FunctionArgs;
template <class... A>
struct FunctionArgs<void (*)(A...)> {
  using Tuple = std::tuple<A...>;
  static constexpr std::size_t count = sizeof...(A);
};

// The six trailing program values of the ABI.
inline constexpr std::size_t kProgramValues = 6;

// The frame of the launch running on this thread, so that kernels can reach
// their scratch area without an ABI parameter for it.
inline thread_local const tcpuLaunchFrame* currentFrame = nullptr;

template <auto Kernel, class Indices>
struct Trampoline;

template <auto Kernel, std::size_t... I>
struct Trampoline<Kernel, std::index_sequence<I...>> {
  using Args = typename FunctionArgs<decltype(Kernel)>::Tuple;

  static void entry(void* const* params, uint64_t begin, uint64_t end,
                    const tcpuLaunchFrame* frame) {
    run(begin, end, frame,
        *static_cast<const std::remove_cvref_t<std::tuple_element_t<I, Args>>*>(params[I])...);
  }

  template <class... P>
  static void run(uint64_t begin, uint64_t end, const tcpuLaunchFrame* frame, P... p) {
    const tcpuLaunchFrame* const outer = currentFrame; // a launch from inside a kernel nests
    currentFrame = frame;
    const uint32_t gx = frame->grid[0], gy = frame->grid[1], gz = frame->grid[2];
    // Decode the first program once; then step x fastest, no division per program.
    uint32_t x = static_cast<uint32_t>(begin % gx);
    const uint64_t row = begin / gx;
    uint32_t y = static_cast<uint32_t>(row % gy);
    uint32_t z = static_cast<uint32_t>(row / gy);
    for (uint64_t i = begin; i < end; ++i) {
      Kernel(p..., x, y, z, gx, gy, gz);
      if (++x == gx) {
        x = 0;
        if (++y == gy) {
          y = 0;
          ++z;
        }
      }
    }
    currentFrame = outer;
  }
};

// The flags of tcpuKernelDesc this runtime knows.
inline constexpr uint32_t kKnownKernelFlags = TCPU_KERNEL_PROGRAMS_WAIT;

template <auto Kernel>
struct KernelExport {
  using Traits = FunctionArgs<decltype(Kernel)>;
  static_assert(Traits::count >= kProgramValues,
                "a tcpu kernel ends with (uint32_t x, y, z, gridX, gridY, gridZ)");
  static constexpr std::size_t numParams = Traits::count - kProgramValues;

  template <std::size_t... P>
  static constexpr bool tailIsProgramValues(std::index_sequence<P...>) {
    return (std::is_same_v<std::tuple_element_t<numParams + P, typename Traits::Tuple>, uint32_t> &&
            ...);
  }
  static_assert(tailIsProgramValues(std::make_index_sequence<kProgramValues>{}),
                "the last six kernel parameters must be uint32_t (x, y, z, gridX, gridY, gridZ)");

  template <std::size_t... I>
  static constexpr auto makeParams(std::index_sequence<I...>) {
    // One extra element so that a kernel without parameters has a valid array.
    return std::array<tcpuParamDesc, numParams + 1>{
        paramDescOf<std::tuple_element_t<I, typename Traits::Tuple>>()..., tcpuParamDesc{}};
  }
  static constexpr auto params = makeParams(std::make_index_sequence<numParams>{});

  template <uint32_t Flags = 0>
  static constexpr tcpuKernelDesc describe(const char* name) {
    static_assert((Flags & ~kKnownKernelFlags) == 0,
                  "unknown kernel flags: tcpuKernelDesc.flags takes TCPU_KERNEL_PROGRAMS_WAIT");
    return {TCPU_KERNEL_ABI_VERSION,
            static_cast<uint32_t>(numParams),
            name,
            &Trampoline<Kernel, std::make_index_sequence<numParams>>::entry,
            params.data(),
            Flags};
  }
};

// The scratch area of the running program (sharedMemBytes of the launch).
inline void* programScratch() {
  return currentFrame ? currentFrame->scratch : nullptr;
}
inline uint64_t programScratchBytes() {
  return currentFrame ? currentFrame->scratchBytes : 0;
}

} // namespace tcpu::abi

#pragma GCC visibility pop

#define TCPU_KERNEL_EXPORT_ATTR __attribute__((visibility("default"), used))

#define TCPU_EXPORT_KERNEL_WITH_FLAGS(name, flags, ...)                                            \
  extern "C" TCPU_KERNEL_EXPORT_ATTR const tcpuKernelDesc tcpu_kernel_desc_##name =                \
      ::tcpu::abi::KernelExport<&__VA_ARGS__>::template describe<(flags)>(#name);
#define TCPU_EXPORT_KERNEL_AS(name, ...) TCPU_EXPORT_KERNEL_WITH_FLAGS(name, 0u, __VA_ARGS__)

#define TCPU_EXPORT_KERNEL(fn) TCPU_EXPORT_KERNEL_AS(fn, fn)

#endif // TCPU_KERNEL_HPP
