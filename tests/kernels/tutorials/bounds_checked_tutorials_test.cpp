// Every reference kernel (kernels/tutorials) compiled with bounds checks
// (TCPU_JIT_CHECK_BOUNDS) and run on buffers from tcpuMemAlloc of exactly the
// sizes the tutorials' own tests use: no launch reports an access (masked-off
// lanes of ragged blocks point past the buffers and must stay silent), and the
// outputs equal the unchecked build's bit for bit (the checks guard the same
// optimized code).
#include <cstring>
#include <functional>
#include <string>

#include "device_memory.hpp"
#include "tcpu/status.hpp"
#include "tutorial_test_support.hpp"

namespace tcpu::test {
namespace {

using Bytes = std::vector<uint8_t>;

template <class T>
Bytes bytesOf(const T* values, size_t count) {
  Bytes bytes(count * sizeof(T));
  std::memcpy(bytes.data(), values, bytes.size());
  return bytes;
}

class CheckedTutorials : public TutorialTest {
protected:
  // Launches a kernel of `module` with buffers from `memory`; returns the outputs to compare.
  using Run = std::function<std::vector<Bytes>(tcpuModule module, DeviceMemory& memory)>;

  // Runs `run` on the plain and the bounds-checked build of `file` and compares the outputs.
  void expectSameResults(const std::string& file, const std::string& what, const Run& run) {
    std::vector<Bytes> outputs[2];
    for (uintptr_t checked : {0u, 1u}) {
      tcpuJitOption key = TCPU_JIT_CHECK_BOUNDS;
      void* value = reinterpret_cast<void*>(checked);
      tcpuModule module = nullptr;
      const tcpuResult loaded =
          tcpuModuleLoadEx(&module, tutorialPath(file).c_str(), 1, &key, &value);
      if (keep(loaded, module, file) == nullptr) return;
      DeviceMemory memory;
      outputs[checked] = run(module, memory);
      if (HasFailure()) return;
    }
    ASSERT_EQ(outputs[0].size(), outputs[1].size()) << what;
    for (size_t i = 0; i < outputs[0].size(); ++i)
      EXPECT_TRUE(outputs[0][i] == outputs[1][i]) << what << ": output " << i << " differs";
  }
  // Launches f and fails the test, with the runtime's report, unless it succeeds.
  template <class... Args>
  void run(tcpuFunction f, unsigned gx, unsigned gy, Args... args) {
    EXPECT_TCPU(launch(f, gx, gy, 1, args...));
  }
};

TEST_F(CheckedTutorials, VectorAdd) {
  for (int32_t n : {1, 1000, 1024, 4097}) {
    expectSameResults("vector_add.bc", concat("n=", n), [&](tcpuModule module, DeviceMemory& m) {
      const size_t count = static_cast<size_t>(n);
      const float* x = m.copyOf(randomFloats(count, 1));
      const float* y = m.copyOf(randomFloats(count, 2));
      float* out = m.allocate<float>(count);
      run(function(module, "add_kernel"), static_cast<unsigned>((n + 1023) / 1024), 1, x, y, out,
          n);
      return std::vector<Bytes>{bytesOf(out, count)};
    });
  }
}

TEST_F(CheckedTutorials, Softmax) {
  struct Shape {
    int rows, cols, programs;
  };
  for (const Shape s : {Shape{33, 1000, 4}, Shape{7, 1, 2}, Shape{5, 16, 5}, Shape{17, 300, 1}}) {
    int block = 16;
    while (block < s.cols)
      block *= 2;
    const std::string name = "softmax_" + std::to_string(block);
    expectSameResults("softmax.bc", name, [&](tcpuModule module, DeviceMemory& m) {
      const size_t size = static_cast<size_t>(s.rows) * static_cast<size_t>(s.cols);
      const float* x = m.copyOf(randomFloats(size, 7, -5.0f, 5.0f));
      float* y = m.allocate<float>(size);
      run(function(module, name.c_str()), static_cast<unsigned>(s.programs), 1, y, x, s.cols,
          s.cols, s.rows, s.cols);
      return std::vector<Bytes>{bytesOf(y, size)};
    });
  }
}

TEST_F(CheckedTutorials, Matmul) {
  struct Case {
    int m, n, k;
  };
  for (const Case c : {Case{65, 70, 33}, Case{1, 1, 1}, Case{17, 600, 300}, Case{640, 8, 5}}) {
    expectSameResults(
        "matmul.bc", concat(c.m, "x", c.n, "x", c.k), [&](tcpuModule module, DeviceMemory& m) {
          const auto sizeA = static_cast<size_t>(c.m) * static_cast<size_t>(c.k);
          const auto sizeB = static_cast<size_t>(c.k) * static_cast<size_t>(c.n);
          const auto sizeC = static_cast<size_t>(c.m) * static_cast<size_t>(c.n);
          const unsigned grid = static_cast<unsigned>(((c.m + 63) / 64) * ((c.n + 63) / 64));
          std::vector<Bytes> outputs;
          const float* a = m.copyOf(randomFloats(sizeA, 21));
          const float* b = m.copyOf(randomFloats(sizeB, 22));
          for (const char* name : {"matmul_f32", "matmul_f32_leaky_relu"}) {
            float* out = m.allocate<float>(sizeC);
            run(function(module, name), grid, 1, a, b, out, c.m, c.n, c.k, c.k, 1, c.n, 1, c.n, 1);
            outputs.push_back(bytesOf(out, sizeC));
          }
          const uint16_t* a16 = m.copyOf(toHalf(randomFloats(sizeA, 23)));
          const uint16_t* b16 = m.copyOf(toHalf(randomFloats(sizeB, 24)));
          float* out32 = m.allocate<float>(sizeC);
          run(function(module, "matmul_f16_f32out"), grid, 1, a16, b16, out32, c.m, c.n, c.k, c.k,
              1, c.n, 1, c.n, 1);
          uint16_t* out16 = m.allocate<uint16_t>(sizeC);
          run(function(module, "matmul_f16"), grid, 1, a16, b16, out16, c.m, c.n, c.k, c.k, 1, c.n,
              1, c.n, 1);
          outputs.push_back(bytesOf(out32, sizeC));
          outputs.push_back(bytesOf(out16, sizeC));
          return outputs;
        });
  }
}

TEST_F(CheckedTutorials, Dropout) {
  expectSameResults("dropout.bc", "n=5000", [&](tcpuModule module, DeviceMemory& m) {
    const int32_t n = 5000;
    const float* x = m.copyOf(randomFloats(n, 11));
    float* out = m.allocate<float>(n);
    run(function(module, "seeded_dropout"), 5u, 1, x, out, n, 0.5f, int32_t{123});
    return std::vector<Bytes>{bytesOf(out, n)};
  });
}

// One thread: the backward pass sums partial dW/dB under locks in the order programs run.
TEST_F(CheckedTutorials, LayerNorm) {
  ASSERT_TCPU(tcpuSetNumThreads(1));
  struct Shape {
    int M, N;
  };
  for (const Shape s : {Shape{3, 200}, Shape{300, 1000}, Shape{64, 3000}}) {
    expectSameResults(
        "layer_norm.bc", concat(s.M, "x", s.N), [&](tcpuModule module, DeviceMemory& m) {
          const auto rows = static_cast<size_t>(s.M), cols = static_cast<size_t>(s.N);
          const float* x = m.copyOf(randomFloats(rows * cols, 1, -2.0f, 3.0f));
          const float* w = m.copyOf(randomFloats(cols, 2, 0.5f, 1.5f));
          const float* b = m.copyOf(randomFloats(cols, 3));
          const float* dy = m.copyOf(randomFloats(rows * cols, 4));
          float* y = m.allocate<float>(rows * cols);
          float* mean = m.allocate<float>(rows);
          float* rstd = m.allocate<float>(rows);
          run(function(module, "layer_norm_fwd_f32"), static_cast<unsigned>(s.M), 1, x, y, w, b,
              mean, rstd, s.N, s.N, 1e-5f);
          const int block = s.N <= 256 ? 256 : s.N <= 1024 ? 1024 : 4096;
          const int group = block <= 1024 ? 128 : 96;
          const auto partial = static_cast<size_t>(group) * cols;
          float* dx = m.allocate<float>(rows * cols);
          float* partialDw = m.allocate<float>(partial);
          float* partialDb = m.allocate<float>(partial);
          int32_t* locks = m.allocate<int32_t>(2 * static_cast<size_t>(group));
          float* dw = m.allocate<float>(cols);
          float* db = m.allocate<float>(cols);
          const std::string dxName = "layer_norm_bwd_dx_f32_" + std::to_string(block);
          run(function(module, dxName.c_str()), static_cast<unsigned>(s.M), 1, dx, dy, partialDw,
              partialDb, x, w, mean, rstd, locks, s.N, s.N);
          run(function(module, "layer_norm_bwd_dwdb_f32"), static_cast<unsigned>((s.N + 127) / 128),
              1, partialDw, partialDb, dw, db, std::min(group, s.M), s.N);
          return std::vector<Bytes>{bytesOf(y, rows * cols), bytesOf(mean, rows),
                                    bytesOf(rstd, rows),     bytesOf(dx, rows * cols),
                                    bytesOf(dw, cols),       bytesOf(db, cols)};
        });
  }
  expectSameResults("layer_norm.bc", "fp16 70x777", [&](tcpuModule module, DeviceMemory& m) {
    constexpr int M = 70, N = 777;
    const auto rows = static_cast<size_t>(M), cols = static_cast<size_t>(N);
    const uint16_t* x = m.copyOf(toHalf(randomFloats(rows * cols, 1, -2.0f, 3.0f)));
    const uint16_t* w = m.copyOf(toHalf(randomFloats(cols, 2, 0.5f, 1.5f)));
    const uint16_t* b = m.copyOf(toHalf(randomFloats(cols, 3)));
    const uint16_t* dy = m.copyOf(toHalf(randomFloats(rows * cols, 4)));
    uint16_t* y = m.allocate<uint16_t>(rows * cols);
    uint16_t* dx = m.allocate<uint16_t>(rows * cols);
    uint16_t* dw = m.allocate<uint16_t>(cols);
    uint16_t* db = m.allocate<uint16_t>(cols);
    float* mean = m.allocate<float>(rows);
    float* rstd = m.allocate<float>(rows);
    float* partialDw = m.allocate<float>(128 * cols);
    float* partialDb = m.allocate<float>(128 * cols);
    int32_t* locks = m.allocate<int32_t>(256);
    run(function(module, "layer_norm_fwd_f16"), unsigned{M}, 1, x, y, w, b, mean, rstd, N, N,
        1e-5f);
    run(function(module, "layer_norm_bwd_dx_f16_1024"), unsigned{M}, 1, dx, dy, partialDw,
        partialDb, x, w, mean, rstd, locks, N, N);
    run(function(module, "layer_norm_bwd_dwdb_f16"), unsigned{(N + 127) / 128}, 1, partialDw,
        partialDb, dw, db, M, N);
    return std::vector<Bytes>{bytesOf(y, rows * cols), bytesOf(dx, rows * cols), bytesOf(dw, cols),
                              bytesOf(db, cols)};
  });
  ASSERT_TCPU(tcpuSetNumThreads(0));
}

TEST_F(CheckedTutorials, Attention) {
  struct Case {
    int Z, H, N_CTX, HEAD_DIM;
    bool causal;
  };
  for (const Case c : {Case{2, 3, 100, 64, false}, Case{2, 3, 100, 64, true},
                       Case{1, 2, 77, 16, true}, Case{1, 1, 1, 16, false}}) {
    const std::string name =
        "attn_fwd_d" + std::to_string(c.HEAD_DIM) + (c.causal ? "_causal" : "");
    expectSameResults(
        "attention.bc", concat(name, " N=", c.N_CTX), [&](tcpuModule module, DeviceMemory& m) {
          const size_t heads = static_cast<size_t>(c.Z) * static_cast<size_t>(c.H);
          const size_t size =
              heads * static_cast<size_t>(c.N_CTX) * static_cast<size_t>(c.HEAD_DIM);
          const uint16_t* q = m.copyOf(toHalf(randomFloats(size, 60, -0.87f, 0.87f)));
          const uint16_t* k = m.copyOf(toHalf(randomFloats(size, 61, -0.87f, 0.87f)));
          const uint16_t* v = m.copyOf(toHalf(randomFloats(size, 62, -0.87f, 0.87f)));
          float* rowMax = m.allocate<float>(heads * static_cast<size_t>(c.N_CTX));
          uint16_t* out = m.allocate<uint16_t>(size);
          const int32_t sh = c.N_CTX * c.HEAD_DIM, sz = c.H * sh, sm = c.HEAD_DIM;
          run(function(module, name.c_str()), static_cast<unsigned>((c.N_CTX + 63) / 64),
              static_cast<unsigned>(heads), q, k, v, 0.5f, rowMax, out, sz, sh, sm, sz, sh, sm, sz,
              sh, sm, sz, sh, sm, c.H, c.N_CTX);
          return std::vector<Bytes>{bytesOf(out, size),
                                    bytesOf(rowMax, heads * static_cast<size_t>(c.N_CTX))};
        });
  }
}

TEST_F(CheckedTutorials, ExternMath) {
  for (int32_t n : {1, 1023, 5000}) {
    expectSameResults("extern_math.bc", concat("n=", n), [&](tcpuModule module, DeviceMemory& m) {
      const auto count = static_cast<size_t>(n);
      const float* x = m.copyOf(randomFloats(count, 13));
      float* y = m.allocate<float>(count);
      run(function(module, "asin_kernel"), static_cast<unsigned>((n + 1023) / 1024), 1, x, y, n);
      return std::vector<Bytes>{bytesOf(y, count)};
    });
  }
}

// The problems' matrices are reached through pointer arrays: accesses through pointers read
// from a parameter's buffer are checked against their own buffers too.
TEST_F(CheckedTutorials, GroupedGemm) {
  struct Problem {
    int m, n, k;
  };
  const std::vector<Problem> problems = {
      {128, 128, 128}, {100, 37, 65}, {1, 1, 1}, {64, 200, 32}, {257, 129, 300}};
  const auto elements = [](int rows, int cols) {
    return static_cast<size_t>(rows) * static_cast<size_t>(cols);
  };
  for (const char* name : {"grouped_matmul_f32", "grouped_matmul_f16"})
    for (unsigned programs : {1u, 3u, 100u}) {
      const bool half = std::string(name).ends_with("f16");
      expectSameResults(
          "grouped_gemm.bc", concat(name, " over ", programs, " programs"),
          [&](tcpuModule module, DeviceMemory& m) {
            std::vector<const void*> as, bs;
            std::vector<void*> cs;
            std::vector<int32_t> sizes, lds;
            for (size_t g = 0; g < problems.size(); ++g) {
              const Problem& p = problems[g];
              const auto seed = static_cast<uint32_t>(g);
              const std::vector<float> a = randomFloats(elements(p.m, p.k), 30 + seed);
              const std::vector<float> b = randomFloats(elements(p.k, p.n), 40 + seed);
              as.push_back(half ? static_cast<const void*>(m.copyOf(toHalf(a))) : m.copyOf(a));
              bs.push_back(half ? static_cast<const void*>(m.copyOf(toHalf(b))) : m.copyOf(b));
              cs.push_back(half ? static_cast<void*>(m.allocate<uint16_t>(elements(p.m, p.n)))
                                : m.allocate<float>(elements(p.m, p.n)));
              sizes.insert(sizes.end(), {p.m, p.n, p.k});
              lds.insert(lds.end(), {p.k, p.n, p.n});
            }
            run(function(module, name), programs, 1, m.copyOf(as), m.copyOf(bs), m.copyOf(cs),
                m.copyOf(sizes), m.copyOf(lds), static_cast<int32_t>(problems.size()));
            std::vector<Bytes> outputs;
            for (size_t g = 0; g < problems.size(); ++g) {
              const size_t count = elements(problems[g].m, problems[g].n);
              outputs.push_back(half ? bytesOf(static_cast<const uint16_t*>(cs[g]), count)
                                     : bytesOf(static_cast<const float*>(cs[g]), count));
            }
            return outputs;
          });
    }
}

} // namespace
} // namespace tcpu::test
