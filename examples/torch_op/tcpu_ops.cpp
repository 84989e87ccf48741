// tcpu_ops: PyTorch operators running Triton-language kernels (kernels.py) compiled ahead of
// time by tcpu, through tcpu's C API. Registered with TORCH_LIBRARY, so any build of this file
// (CMake, setuptools or torch.utils.cpp_extension.load) is loaded with torch.ops.load_library
// and called as torch.ops.tcpu_ops.matmul(a, b, out) and torch.ops.tcpu_ops.gelu(x).
//
// Inputs are checked first, with errors naming the argument and the value (a RuntimeError in
// Python): CPU tensors, fp32/fp16/bf16 of one dtype, shapes, sizes within the kernels' int32
// arguments, and an `out` that matches and does not overlap the inputs. Then the dtype picks
// the specialization. Strides are the kernels' arguments: any strided input works. C++14, as
// torch 1.13's extension builds compile it.
#include <torch/library.h>
#include <torch/torch.h>

#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <utility>

#include "gelu_bf16.h"
#include "gelu_f16.h"
#include "gelu_f32.h"
#include "matmul_bf16.h"
#include "matmul_f16.h"
#include "matmul_f32.h"

namespace {

// tcpu's runtime and the dispatchers' specializations, loaded once per process.
void ensureLoaded() {
  static std::once_flag once;
  static std::string failure;
  std::call_once(once, [] {
    const auto check = [](tcpuResult result, const char* what) {
      if (result != TCPU_SUCCESS && failure.empty())
        failure = std::string(what) + ": " + tcpuGetLastErrorDetail();
    };
    check(tcpuInit(0), "tcpuInit");
    check(load_matmul_f32(), "load_matmul_f32");
    check(load_matmul_f16(), "load_matmul_f16");
    check(load_matmul_bf16(), "load_matmul_bf16");
    check(load_gelu_f32(), "load_gelu_f32");
    check(load_gelu_f16(), "load_gelu_f16");
    check(load_gelu_bf16(), "load_gelu_bf16");
  });
  TORCH_CHECK(failure.empty(), "tcpu_ops: loading the kernels failed: ", failure);
}

void checkLaunch(tcpuResult result, const char* kernel) {
  if (result == TCPU_SUCCESS) result = tcpuStreamSynchronize(nullptr);
  TORCH_CHECK(result == TCPU_SUCCESS, "tcpu_ops: ", kernel, " failed: ", tcpuGetLastErrorDetail());
}

void checkFloatingCpu(const at::Tensor& t, const char* name) {
  TORCH_CHECK(t.device().is_cpu(), "tcpu_ops: ", name, " must be a CPU tensor, got one on ",
              t.device());
  const auto type = t.scalar_type();
  TORCH_CHECK(type == at::kFloat || type == at::kHalf || type == at::kBFloat16, "tcpu_ops: ", name,
              " must be float32, float16 or bfloat16, got ", type);
}

int32_t int32Size(int64_t value, const char* what) {
  TORCH_CHECK(value <= std::numeric_limits<int32_t>::max(), "tcpu_ops: ", what, " = ", value,
              " exceeds the kernels' int32 arguments");
  return static_cast<int32_t>(value);
}

// Whether the bytes two tensors may touch overlap (their first to last element, by strides).
bool overlaps(const at::Tensor& x, const at::Tensor& y) {
  if (x.numel() == 0 || y.numel() == 0) return false;
  const auto first = [](const at::Tensor& t) { return static_cast<const char*>(t.data_ptr()); };
  const auto end = [&](const at::Tensor& t) {
    int64_t last = 0;
    for (int64_t d = 0; d < t.dim(); ++d)
      last += (t.size(d) - 1) * t.stride(d);
    return first(t) + (last + 1) * t.element_size();
  };
  return first(x) < end(y) && first(y) < end(x);
}

template <class T>
T* data(const at::Tensor& t) {
  return static_cast<T*>(t.data_ptr());
}

at::Tensor matmul(const at::Tensor& a, const at::Tensor& b, const c10::optional<at::Tensor>& out) {
  checkFloatingCpu(a, "a");
  checkFloatingCpu(b, "b");
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "tcpu_ops.matmul: a and b must be 2-D, got ", a.sizes(),
              " and ", b.sizes());
  TORCH_CHECK(a.size(1) == b.size(0), "tcpu_ops.matmul: a is ", a.sizes(), " and b is ", b.sizes(),
              ": a.size(1) must equal b.size(0)");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "tcpu_ops.matmul: a and b must have one dtype, ",
              "got ", a.scalar_type(), " and ", b.scalar_type());
  const int32_t M = int32Size(a.size(0), "M"), N = int32Size(b.size(1), "N"),
                K = int32Size(a.size(1), "K");
  at::Tensor c;
  if (out) {
    c = *out;
    checkFloatingCpu(c, "out");
    TORCH_CHECK(c.scalar_type() == a.scalar_type(), "tcpu_ops.matmul: out has dtype ",
                c.scalar_type(), ", the product ", a.scalar_type());
    TORCH_CHECK(c.dim() == 2 && c.size(0) == M && c.size(1) == N, "tcpu_ops.matmul: out is ",
                c.sizes(), ", the product is [", M, ", ", N, "]");
    TORCH_CHECK(!overlaps(c, a) && !overlaps(c, b), "tcpu_ops.matmul: out overlaps ",
                overlaps(c, a) ? "a" : "b", " (the kernel reads its inputs while writing out)");
  } else {
    c = at::empty({M, N}, a.options());
  }
  if (M == 0 || N == 0) return c;
  if (K == 0) return c.zero_();
  const at::Tensor* strided[] = {&a, &b, &c};
  const char* names[] = {"a's stride", "b's stride", "out's stride"};
  for (int i = 0; i < 3; ++i) // strides travel as int32 too
    for (int64_t d = 0; d < 2; ++d)
      int32Size(strided[i]->stride(d), names[i]);
  ensureLoaded();
  const auto s = [](const at::Tensor& t, int d) { return static_cast<int32_t>(t.stride(d)); };
  tcpuResult result = TCPU_SUCCESS;
  switch (a.scalar_type()) {
  case at::kFloat:
    result = matmul_f32_default(nullptr, data<float>(a), data<float>(b), data<float>(c), M, N, K,
                                s(a, 0), s(a, 1), s(b, 0), s(b, 1), s(c, 0), s(c, 1));
    break;
  case at::kHalf: // fp16 and bf16 travel as their bits
    result = matmul_f16_default(nullptr, data<uint16_t>(a), data<uint16_t>(b), data<uint16_t>(c), M,
                                N, K, s(a, 0), s(a, 1), s(b, 0), s(b, 1), s(c, 0), s(c, 1));
    break;
  default:
    result = matmul_bf16_default(nullptr, data<uint16_t>(a), data<uint16_t>(b), data<uint16_t>(c),
                                 M, N, K, s(a, 0), s(a, 1), s(b, 0), s(b, 1), s(c, 0), s(c, 1));
  }
  checkLaunch(result, "matmul");
  return c;
}

at::Tensor gelu(const at::Tensor& x) {
  checkFloatingCpu(x, "x");
  const at::Tensor input = x.contiguous(); // an elementwise kernel over n contiguous elements
  at::Tensor y = at::empty_like(input);
  const int32_t n = int32Size(input.numel(), "x.numel()");
  if (n == 0) return y;
  ensureLoaded();
  tcpuResult result = TCPU_SUCCESS;
  switch (x.scalar_type()) {
  case at::kFloat:
    result = gelu_f32_default(nullptr, data<float>(input), data<float>(y), n);
    break;
  case at::kHalf:
    result = gelu_f16_default(nullptr, data<uint16_t>(input), data<uint16_t>(y), n);
    break;
  default:
    result = gelu_bf16_default(nullptr, data<uint16_t>(input), data<uint16_t>(y), n);
  }
  checkLaunch(result, "gelu");
  return y;
}

} // namespace

TORCH_LIBRARY(tcpu_ops, m) {
  m.def("matmul(Tensor a, Tensor b, Tensor? out=None) -> Tensor", &matmul);
  m.def("gelu(Tensor x) -> Tensor", &gelu);
}
