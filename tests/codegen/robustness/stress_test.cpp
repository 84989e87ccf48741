// Load: 8 host threads share the runtime for a few seconds while copies of this test in other
// processes compile the same kernels into the same cold cache. Each round a thread loads a
// module (the same kernels as other threads, and different ones), runs a two-step pipeline
// across two of 16 shared streams joined by an event, checks every element, and unloads the
// module while other threads launch on theirs (every other round before its own queued work
// has run). A watchdog ends the process if the threads stop making progress (a deadlock), and
// the heap returns to its starting level (under the sanitizer stage, LeakSanitizer checks
// every byte at exit).
//
// TCPU_STRESS_SECONDS lengthens a run (default 3).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "codegen_test_support.hpp"

extern char** environ;

namespace tcpu::test {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kThreads = 8;
constexpr int kStreams = 16;
constexpr int kChildProcesses = 3;

// The kernels a round picks from: one IR file under two signatures (two cache entries of the
// same source) and another file.
struct StressKernel {
  const char* file;
  const char* name;
  const char* signature; // nullptr: none
};
constexpr std::array<StressKernel, 3> kKernels{{
    {"vector_add.ll", "add_kernel", nullptr},
    {"vector_add.ll", "add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32"},
    {"scale.ll", "scale", "*fp32, *fp32, fp32, i32, 256"},
}};

Clock::duration runLength() {
  const char* text = std::getenv("TCPU_STRESS_SECONDS");
  const int seconds = text ? std::atoi(text) : 0;
  return std::chrono::seconds(seconds > 0 ? seconds : 3);
}

// Ends the process when no thread has made progress for `limit`: a deadlock would otherwise
// hang the test until ctest's timeout, without saying where.
class Watchdog {
public:
  explicit Watchdog(Clock::duration limit) : limit_(limit), thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  void progress() { progress_.fetch_add(1, std::memory_order_relaxed); }

private:
  void watch() {
    std::unique_lock lock(mutex_);
    uint64_t seen = progress_.load();
    while (!wake_.wait_for(lock, limit_, [&] { return done_; })) {
      const uint64_t now = progress_.load();
      if (now == seen) {
        std::fprintf(stderr, "stress: watchdog: no progress for %lld s (%llu steps): deadlock\n",
                     static_cast<long long>(
                         std::chrono::duration_cast<std::chrono::seconds>(limit_).count()),
                     static_cast<unsigned long long>(now));
        std::fflush(stderr);
        std::_Exit(3);
      }
      seen = now;
    }
  }
  const Clock::duration limit_;
  std::atomic<uint64_t> progress_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

// The first failure of any thread, with what it was doing.
class Failures {
public:
  void add(const std::string& what) {
    std::lock_guard lock(mutex_);
    if (count_++ == 0) first_ = what;
  }
  int count() const {
    std::lock_guard lock(mutex_);
    return count_;
  }
  std::string first() const {
    std::lock_guard lock(mutex_);
    return first_;
  }

private:
  mutable std::mutex mutex_;
  int count_ = 0;
  std::string first_;
};

class Stress : public CodegenTest {
protected:
  tcpuModule loadKernel(const StressKernel& kernel, std::string& error) {
    JitOptions options;
    if (kernel.signature) options.set(TCPU_JIT_SIGNATURE, kernel.signature);
    tcpuModule module = nullptr;
    if (tcpuModuleLoadEx(&module, irPath(kernel.file).c_str(), options.count(), options.keys.data(),
                         options.values.data()) != TCPU_SUCCESS) {
      error = std::string("load ") + kernel.file + ": " + tcpuGetLastErrorDetail();
      return nullptr;
    }
    return module;
  }

  // One round: in -> (kernel on `first`) -> mid -> event -> (kernel on `second`) -> out,
  // checked. Unloads the module before the work has run when `unloadEarly`. Empty on success.
  std::string round(const StressKernel& kernel, int n, tcpuStream first, tcpuStream second,
                    bool unloadEarly) {
    std::string error;
    tcpuModule module = loadKernel(kernel, error);
    if (!module) return error;
    tcpuFunction function = nullptr;
    if (tcpuModuleGetFunction(&function, module, kernel.name) != TCPU_SUCCESS)
      return std::string("get ") + kernel.name + ": " + tcpuGetLastErrorDetail();
    const bool add = std::string(kernel.name) == "add_kernel";
    std::vector<float> input(static_cast<size_t>(n)), output(static_cast<size_t>(n), -1.0f);
    for (int i = 0; i < n; ++i)
      input[static_cast<size_t>(i)] = static_cast<float>(i % 1000);
    const size_t bytes = sizeof(float) * static_cast<size_t>(n);
    tcpuDeviceptr in = 0, mid = 0, out = 0;
    tcpuEvent ready = nullptr, done = nullptr;
    auto step = [&](tcpuResult result, const char* what) {
      if (result != TCPU_SUCCESS && error.empty())
        error = std::string(what) + ": " + tcpuGetLastErrorDetail();
      return result == TCPU_SUCCESS;
    };
    const int blocks = add ? (n + 1023) / 1024 : (n + 255) / 256;
    auto launch = [&](tcpuDeviceptr source, tcpuDeviceptr target, tcpuStream stream) {
      auto* x = reinterpret_cast<float*>(source);
      auto* y = reinterpret_cast<float*>(target);
      float alpha = 2.0f;
      int32_t count = n;
      void* addParams[] = {&x, &x, &y, &count};
      void* scaleParams[] = {&y, &x, &alpha, &count};
      return tcpuLaunchKernel(function, static_cast<unsigned>(blocks), 1, 1, 1, 1, 1, 0, stream,
                              add ? addParams : scaleParams, nullptr);
    };
    if (step(tcpuMemAlloc(&in, bytes), "alloc") && step(tcpuMemAlloc(&mid, bytes), "alloc") &&
        step(tcpuMemAlloc(&out, bytes), "alloc") &&
        step(tcpuEventCreate(&ready, TCPU_EVENT_DISABLE_TIMING), "event") &&
        step(tcpuEventCreate(&done, 0), "event") &&
        step(tcpuMemcpyHtoDAsync(in, input.data(), bytes, first), "copy in") &&
        step(launch(in, mid, first), "first launch") &&
        step(tcpuEventRecord(ready, first), "record") &&
        step(tcpuStreamWaitEvent(second, ready, 0), "wait event") &&
        step(launch(mid, out, second), "second launch") &&
        step(tcpuMemcpyDtoHAsync(output.data(), out, bytes, second), "copy out") &&
        step(tcpuEventRecord(done, second), "record")) {
      if (unloadEarly) step(tcpuModuleUnload(std::exchange(module, nullptr)), "early unload");
      step(tcpuEventSynchronize(done), "synchronize");
    }
    // Each step doubles (x + x, or 2x): exact in fp32 for these values.
    for (int i = 0; error.empty() && i < n; ++i)
      if (output[static_cast<size_t>(i)] != 4.0f * input[static_cast<size_t>(i)])
        error = std::string(kernel.name) + ": out[" + std::to_string(i) +
                "] = " + std::to_string(output[static_cast<size_t>(i)]) + ", expected " +
                std::to_string(4.0f * input[static_cast<size_t>(i)]);
    for (tcpuEvent event : {ready, done})
      if (event) step(tcpuEventDestroy(event), "event destroy");
    for (tcpuDeviceptr buffer : {in, mid, out})
      if (buffer) step(tcpuMemFree(buffer), "free");
    if (module) step(tcpuModuleUnload(module), "unload");
    return error;
  }

  // Starts copies of this binary running Stress.ChildProcess against `cache`.
  std::vector<pid_t> startChildren(const std::filesystem::path& cache) {
    std::vector<pid_t> children;
    std::error_code error;
    const std::string self = std::filesystem::read_symlink("/proc/self/exe", error).string();
    if (error) return children; // not Linux: threads only
    setenv("TCPU_TEST_SHARED_CACHE", cache.c_str(), 1);
    for (int i = 0; i < kChildProcesses; ++i) {
      const std::string filter = "--gtest_filter=Stress.ChildProcess";
      char* argv[] = {const_cast<char*>(self.c_str()), const_cast<char*>(filter.c_str()), nullptr};
      pid_t pid = 0;
      if (posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv, environ) == 0)
        children.push_back(pid);
      else
        ADD_FAILURE() << "cannot start child " << i;
    }
    unsetenv("TCPU_TEST_SHARED_CACHE");
    return children;
  }
};

// The child side of ManyThreadsAndProcessesShareTheRuntime: each kernel once, in the cache the
// parent names.
TEST_F(Stress, ChildProcess) {
  const char* cache = std::getenv("TCPU_TEST_SHARED_CACHE");
  if (!cache) GTEST_SKIP() << "run by ManyThreadsAndProcessesShareTheRuntime";
  setenv("TCPU_CACHE_DIR", cache, 1);
  for (const StressKernel& kernel : kKernels)
    EXPECT_EQ(round(kernel, 5000, nullptr, nullptr, false), "");
}

size_t heapInUse() {
#if defined(__GLIBC__)
  return mallinfo2().uordblks;
#else
  return 0;
#endif
}

TEST_F(Stress, ManyThreadsAndProcessesShareTheRuntime) {
  const Clock::duration length = runLength();
  ASSERT_TCPU(tcpuSetNumThreads(2));
  // Warm up once on the null stream, so that what stays allocated for the life of the process
  // (LLVM's registries, OpenMP's teams, workers' scratch) is there before the heap is measured.
  for (const StressKernel& kernel : kKernels)
    ASSERT_EQ(round(kernel, 3000, nullptr, nullptr, false), "");
  const size_t heapBefore = heapInUse();

  // A cold cache: every load races the other threads' and the children's compiles.
  const std::filesystem::path cache = cacheDir_ / "shared";
  setenv("TCPU_CACHE_DIR", cache.c_str(), 1);
  std::vector<pid_t> children = startChildren(cache);

  std::array<tcpuStream, kStreams> streams{};
  for (int s = 0; s < kStreams; ++s)
    ASSERT_TCPU(tcpuStreamCreate(&streams[static_cast<size_t>(s)],
                                 s % 2 ? TCPU_STREAM_NON_BLOCKING : TCPU_STREAM_DEFAULT));
  Failures failures;
  std::atomic<int> rounds{0};
  {
    Watchdog watchdog(std::chrono::seconds(120));
    const Clock::time_point end = Clock::now() + length;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        for (int r = 0; r < 2 || Clock::now() < end; ++r) {
          const StressKernel& kernel = kKernels[static_cast<size_t>(t + r) % kKernels.size()];
          const tcpuStream first = streams[static_cast<size_t>(2 * t + r) % kStreams];
          const tcpuStream second = streams[static_cast<size_t>(2 * t + r + 5) % kStreams];
          const int n = 1000 + 97 * t + 131 * (r % 7);
          if (std::string error = round(kernel, n, first, second, r % 2 == 1); !error.empty())
            failures.add("thread " + std::to_string(t) + " round " + std::to_string(r) + ": " +
                         error);
          rounds.fetch_add(1);
          watchdog.progress();
        }
      });
    for (std::thread& thread : threads)
      thread.join();
    for (tcpuStream stream : streams)
      EXPECT_TCPU(tcpuStreamDestroy(stream));
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child " << pid << " failed";
  }
  EXPECT_EQ(failures.count(), 0) << failures.count() << " failed rounds of " << rounds.load()
                                 << "; the first: " << failures.first();
  EXPECT_GE(rounds.load(), 2 * kThreads);
  // Three entries, written whole by whichever process or thread compiled first.
  size_t entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(cache))
    entries += entry.path().extension() == ".tcpuobj" ? 1 : 0;
  EXPECT_EQ(entries, kKernels.size());

  const size_t heapAfter = heapInUse();
  // Everything made in the rounds is gone; what may remain is allocator slack (thread caches,
  // freed but unconsolidated chunks), bounded here. Under ASan mallinfo2 sees nothing and
  // LeakSanitizer checks instead.
  EXPECT_LE(heapAfter, heapBefore + (1u << 20))
      << "heap in use grew from " << heapBefore << " to " << heapAfter << " bytes";
  std::printf("stress: %d rounds by %d threads in %.1f s, %d child processes; heap in use %zu -> "
              "%zu bytes\n",
              rounds.load(), kThreads, std::chrono::duration<double>(length).count(),
              static_cast<int>(children.size()), heapBefore, heapAfter);
}

} // namespace
} // namespace tcpu::test
