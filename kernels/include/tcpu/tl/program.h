// Programs: a kernel is a class deriving from tl::program whose operator()
// holds the body (Triton's @triton.jit function); its template parameters are
// Triton's constexpr parameters. program_id, num_programs, device_print and
// device_assert are members, so a body calls them unqualified, as in Triton,
// without thread-locals (which JIT'd code cannot use).
//
//   template <int BLOCK_SIZE> struct add_kernel : tl::program {
//     void operator()(const float* x, const float* y, float* out, int32_t n) const { ... }
//   };
//   TL_KERNEL(add_kernel, add_kernel<1024>);  // the ABI function "add_kernel"
#ifndef TCPU_TL_PROGRAM_H
#define TCPU_TL_PROGRAM_H

#include <source_location>

#include "tcpu/tl/core.h"

namespace tcpu::tl {

namespace detail {
template <class T>
constexpr uint32_t dataType() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>)
    return TCPU_TYPE_I1;
  else if constexpr (std::is_same_v<U, _Float16>)
    return TCPU_TYPE_FP16;
  else if constexpr (std::is_same_v<U, __bf16>)
    return TCPU_TYPE_BF16;
  else if constexpr (std::is_same_v<U, float>)
    return TCPU_TYPE_FP32;
  else if constexpr (std::is_same_v<U, double>)
    return TCPU_TYPE_FP64;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>)
    return sizeof(U) == 1   ? TCPU_TYPE_I8
           : sizeof(U) == 2 ? TCPU_TYPE_I16
           : sizeof(U) == 4 ? TCPU_TYPE_I32
                            : TCPU_TYPE_I64;
  else if constexpr (std::is_integral_v<U>)
    return sizeof(U) == 1   ? TCPU_TYPE_U8
           : sizeof(U) == 2 ? TCPU_TYPE_U16
           : sizeof(U) == 4 ? TCPU_TYPE_U32
                            : TCPU_TYPE_U64;
  else
    return TCPU_TYPE_UNKNOWN;
}
} // namespace detail

class program {
public:
  // tl.program_id(axis) and tl.num_programs(axis), int32 as in Triton.
  TL_INLINE int32_t program_id(int axis) const { return static_cast<int32_t>(id_[axis]); }
  TL_INLINE int32_t num_programs(int axis) const { return static_cast<int32_t>(grid_[axis]); }

  // tl.device_print(prefix, x): one line per element, prefixed with the
  // program ids; a call's lines are never interleaved with another's.
  template <Operand X>
  void device_print(const char* prefix, const X& x, bool hex = false) const {
    const auto& value = eval(x);
    using V = std::remove_cvref_t<decltype(value)>;
    tcpuPrintRecord record{};
    record.prefix = prefix;
    for (int a = 0; a < 3; ++a)
      record.programId[a] = id_[a];
    record.hex = hex ? 1u : 0u;
    if constexpr (is_block_v<V>) {
      record.type = detail::dataType<element_t<V>>();
      record.rank = static_cast<uint32_t>(V::rank);
      record.shape[0] = static_cast<uint32_t>(V::rank == 2 ? V::rows : V::cols);
      record.shape[1] = static_cast<uint32_t>(V::rank == 2 ? V::cols : 1);
      record.values = value.v;
      platform::print(&record);
    } else {
      record.type = detail::dataType<V>();
      record.values = &value;
      platform::print(&record);
    }
  }

  // tl.device_assert(cond, msg): if any lane is false, the launch fails with
  // TCPU_ERROR_ASSERT naming this program, the file and the line. The
  // process is not killed; returns whether the condition held, so a body can
  // stop: `if (!device_assert(i < n, "i < n")) return;`.
  template <Operand C>
  bool device_assert(const C& cond, const char* message = "",
                     std::source_location where = std::source_location::current()) const {
    bool ok = true;
    if constexpr (Tensor<C>) {
      const auto& lanes = eval(cond);
      for (int k = 0; k < std::remove_cvref_t<decltype(lanes)>::size; ++k)
        ok = ok && lanes.v[k];
    } else {
      ok = static_cast<bool>(cond);
    }
    if (!ok) {
      const tcpuAssertRecord record{message,
                                    where.file_name(),
                                    where.line(),
                                    where.function_name(),
                                    {id_[0], id_[1], id_[2]}};
      platform::assertFailed(&record);
    }
    return ok;
  }

  // Set by the kernel's ABI function before the body runs.
  TL_INLINE void setProgram(uint32_t x, uint32_t y, uint32_t z, uint32_t gx, uint32_t gy,
                            uint32_t gz) {
    id_[0] = x, id_[1] = y, id_[2] = z;
    grid_[0] = gx, grid_[1] = gy, grid_[2] = gz;
  }

private:
  uint32_t id_[3] = {0, 0, 0};
  uint32_t grid_[3] = {1, 1, 1};
};

namespace detail {

// The parameter types of kernel class K for codegen (TCPU_KERNEL_TYPES_PREFIX, kernel_abi.h):
// what a pointer points to and whether an integer is unsigned, which the IR does not say.
template <class T>
constexpr uint32_t parameterCode() {
  if constexpr (std::is_pointer_v<T>)
    return TCPU_TYPE_PTR | (dataType<std::remove_pointer_t<T>>() << 8);
  else
    return dataType<T>();
}
template <std::size_t N>
struct ParameterCodes {
  uint32_t count;
  uint32_t codes[N == 0 ? 1 : N];
};
template <class K, class Body = decltype(&K::operator())>
struct ParameterTypes;
template <class K, class... A>
struct ParameterTypes<K, void (K::*)(A...) const> {
  static constexpr ParameterCodes<sizeof...(A)> value{sizeof...(A), {parameterCode<A>()...}};
};
template <class K, class... A>
struct ParameterTypes<K, void (K::*)(A...)> : ParameterTypes<K, void (K::*)(A...) const> {};

// The ABI function of kernel class K: its operator()'s parameters, then the
// six program values.
template <class K, class Body = decltype(&K::operator())>
struct Entry;
template <class K, class... A>
struct EntryFor {
  static void run(A... args, uint32_t x, uint32_t y, uint32_t z, uint32_t gx, uint32_t gy,
                  uint32_t gz) {
    K kernel;
    kernel.setProgram(x, y, z, gx, gy, gz);
    kernel(args...);
  }
};
template <class K, class... A>
struct Entry<K, void (K::*)(A...) const> : EntryFor<K, A...> {};
template <class K, class... A>
struct Entry<K, void (K::*)(A...)> : EntryFor<K, A...> {};

} // namespace detail

} // namespace tcpu::tl

// TL_KERNEL(name, KernelClass<constexprs...>): instantiates the kernel and
// names its ABI function `name`. Codegen finds the tag variable this defines
// (TCPU_KERNEL_TAG_PREFIX + name, kernel_abi.h), gives the function that name and drops the tag,
// so one template yields many named specializations (softmax_256,
// softmax_1024, ...), at build time (tcpu_add_kernels' SPECIALIZE) or in the
// source itself. The parameters' types go beside it (TCPU_KERNEL_TYPES_PREFIX), so tools
// know what each pointer points to without a signature.
#define TL_KERNEL(name, ...)                                                                       \
  static_assert(std::is_base_of_v<::tcpu::tl::program, __VA_ARGS__>,                               \
                "TL_KERNEL: the kernel class must derive from tl::program");                       \
  extern "C" __attribute__((used)) void (*const tcpu_tl_kernel_##name)() =                         \
      reinterpret_cast<void (*)()>(&::tcpu::tl::detail::Entry<__VA_ARGS__>::run);                  \
  extern "C"                                                                                       \
      __attribute__((used)) decltype(::tcpu::tl::detail::ParameterTypes<__VA_ARGS__>::value)       \
          tcpu_tl_types_##name = ::tcpu::tl::detail::ParameterTypes<__VA_ARGS__>::value

#endif
