// Several threads load, run and unload IR modules at once: cold compiles,
// cache hits and misses, and JIT links all race.
#include <atomic>
#include <thread>
#include <vector>

#include "codegen_test_support.hpp"

namespace tcpu::test {
namespace {

class Concurrency : public CodegenTest {};

TEST_F(Concurrency, ThreadsLoadRunAndUnloadModules) {
  constexpr int kThreads = 4, kRounds = 12;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        // Alternate files and the cache, so compiles, hits and stores interleave.
        const bool add = (t + round) % 2 == 0;
        tcpuJitOption keys[] = {TCPU_JIT_CACHE};
        void* values[] = {reinterpret_cast<void*>(uintptr_t{round % 3 != 0})};
        tcpuModule module;
        const std::string path = irPath(add ? "vector_add.ll" : "program_ids.ll");
        if (tcpuModuleLoadEx(&module, path.c_str(), 1, keys, values) != TCPU_SUCCESS) {
          ++failures;
          continue;
        }
        tcpuFunction f;
        bool ok =
            tcpuModuleGetFunction(&f, module, add ? "add_kernel" : "program_ids") == TCPU_SUCCESS;
        if (ok && add) {
          std::vector<float> x(3000, float(t)), out(3000, 0.0f);
          float *px = x.data(), *po = out.data();
          int32_t n = 3000;
          void* params[] = {&px, &px, &po, &n};
          ok = tcpuLaunchKernel(f, 3, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr) == TCPU_SUCCESS &&
               out == std::vector<float>(3000, 2.0f * float(t));
        } else if (ok) {
          std::vector<int32_t> out(4 * 6, -1);
          int32_t* po = out.data();
          void* params[] = {&po};
          ok = tcpuLaunchKernel(f, 2, 2, 1, 1, 1, 1, 0, nullptr, params, nullptr) == TCPU_SUCCESS &&
               out[3 * 6 + 0] == 1 && out[3 * 6 + 1] == 1 && out[3 * 6 + 3] == 2;
        }
        if (!ok) ++failures;
        if (tcpuModuleUnload(module) != TCPU_SUCCESS) ++failures;
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
}

} // namespace
} // namespace tcpu::test
