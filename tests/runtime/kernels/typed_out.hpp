// What the typed_params test kernel writes back: one field per scalar type.
#ifndef TCPU_TESTS_RUNTIME_KERNELS_TYPED_OUT_HPP
#define TCPU_TESTS_RUNTIME_KERNELS_TYPED_OUT_HPP

#include <cstdint>

struct TypedOut {
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint64_t u64;
  float f32;
  double f64;
  bool flag;
};

#endif // TCPU_TESTS_RUNTIME_KERNELS_TYPED_OUT_HPP
