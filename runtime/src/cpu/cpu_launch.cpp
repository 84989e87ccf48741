// The CPU backend's launch: checks the arguments, then runs the grid now (null stream) or
// queues it on a stream with a private copy of the arguments.
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "launch/grid_runner.hpp"
#include "launch/param_layout.hpp"
#include "state/runtime_state.hpp"

namespace tcpu::detail {
namespace {

// The `extra` array's settings.
struct ExtraOptions {
  const std::byte* buffer = nullptr;
  const size_t* bufferSize = nullptr;
  bool hasCount = false;
  uintptr_t count = 0;
  int numThreads = 0; // 0: the runtime's setting
  const tcpuCancelFlag* cancel = nullptr;
};

// Far above any core count; a larger value is a caller's mistake, not a request.
constexpr uintptr_t kMaxLaunchThreads = 1u << 16;

Status parseExtra(void** extra, ExtraOptions& options, const std::string& kernel) {
  if (!extra) return {};
  constexpr int kMaxEntries = 64; // a missing TCPU_LAUNCH_PARAM_END must not run off forever
  for (int i = 0; i < kMaxEntries; i += 2) {
    void* key = extra[i];
    if (key == TCPU_LAUNCH_PARAM_END) return {};
    void* value = extra[i + 1];
    if (key == TCPU_LAUNCH_PARAM_BUFFER_POINTER) {
      options.buffer = static_cast<const std::byte*>(value);
    } else if (key == TCPU_LAUNCH_PARAM_BUFFER_SIZE) {
      options.bufferSize = static_cast<const size_t*>(value);
    } else if (key == TCPU_LAUNCH_PARAM_COUNT) {
      options.hasCount = true;
      options.count = reinterpret_cast<uintptr_t>(value);
    } else if (key == TCPU_LAUNCH_PARAM_NUM_THREADS) {
      const uintptr_t threads = reinterpret_cast<uintptr_t>(value);
      if (threads < 1 || threads > kMaxLaunchThreads)
        return Status(TCPU_ERROR_INVALID_VALUE,
                      concat("kernel '", kernel, "': extra[", i + 1, "]=", threads,
                             " is not a thread count for TCPU_LAUNCH_PARAM_NUM_THREADS (1 to ",
                             kMaxLaunchThreads, ")"));
      options.numThreads = static_cast<int>(threads);
    } else if (key == TCPU_LAUNCH_PARAM_CANCEL_FLAG) {
      options.cancel = static_cast<const tcpuCancelFlag*>(value);
    } else {
      return Status(TCPU_ERROR_INVALID_VALUE, concat("kernel '", kernel, "': extra[", i, "]=", key,
                                                     " is not a TCPU_LAUNCH_PARAM_* key"));
    }
  }
  return Status(TCPU_ERROR_INVALID_VALUE,
                concat("kernel '", kernel, "': extra has no TCPU_LAUNCH_PARAM_END within ",
                       kMaxEntries, " entries"));
}

// The parameter value pointers the entry reads: kernelParams, or pointers into
// the packed buffer of `extra` (kept in `unpacked`).
Expected<void* const*> resolveParams(const Function& function, void** kernelParams,
                                     const ExtraOptions& options, std::vector<void*>& unpacked) {
  const tcpuKernelDesc& desc = *function.desc;
  const std::string& name = function.name;
  if (options.hasCount && options.count != desc.numParams)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("kernel '", name, "' takes ", desc.numParams,
                         " parameters but the launch passes ", options.count));
  if (options.buffer || options.bufferSize) {
    if (kernelParams)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("kernel '", name,
                           "': pass parameters either in kernelParams or in extra, not both"));
    if (!options.buffer || !options.bufferSize)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("kernel '", name,
                           "': extra needs both TCPU_LAUNCH_PARAM_BUFFER_POINTER "
                           "and TCPU_LAUNCH_PARAM_BUFFER_SIZE"));
    const ParamLayout layout = layoutOf(desc);
    if (*options.bufferSize < layout.size)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("kernel '", name, "': the parameter buffer holds ", *options.bufferSize,
                           " bytes but its ", desc.numParams, " parameters need ", layout.size));
    unpacked.resize(desc.numParams);
    for (uint32_t i = 0; i < desc.numParams; ++i)
      unpacked[i] = const_cast<std::byte*>(options.buffer) + layout.offsets[i];
    return static_cast<void* const*>(unpacked.data());
  }
  if (desc.numParams == 0) return static_cast<void* const*>(nullptr);
  if (!kernelParams)
    return Status(TCPU_ERROR_INVALID_VALUE, concat("kernel '", name, "' takes ", desc.numParams,
                                                   " parameters but kernelParams is NULL"));
  for (uint32_t i = 0; i < desc.numParams; ++i)
    if (!kernelParams[i])
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("kernel '", name, "': kernelParams[", i, "] is NULL (kernel takes ",
                           desc.numParams, " parameters)"));
  return static_cast<void* const*>(kernelParams);
}

// Whether every value sits at its parameter's alignment (the entry reads them
// through typed pointers; CUDA accepts any address, so misaligned ones are copied).
bool valuesAligned(const tcpuKernelDesc& desc, void* const* values) {
  for (uint32_t i = 0; i < desc.numParams; ++i)
    if (reinterpret_cast<uintptr_t>(values[i]) % desc.params[i].align != 0) return false;
  return true;
}

// The hooks as they are at launch time (a queued launch keeps them).
LaunchHooks hooksNow() {
  const Settings& settings = runtime().settings;
  return settings.hasHooks() ? settings.hooks() : LaunchHooks{};
}

Status runWithHooks(const Function& function, const GridLaunch& grid,
                    const LaunchSettings& settings, const LaunchHooks& hooks, tcpuStream stream) {
  if (!hooks.enter && !hooks.exit) return runGrid(grid, settings);
  tcpuLaunchHookInfo info{function.name.c_str(),
                          {grid.grid[0], grid.grid[1], grid.grid[2]},
                          static_cast<int>(std::min<uint64_t>(settings.numThreads, grid.programs)),
                          stream,
                          0};
  if (hooks.enter) hooks.enter(&info, hooks.userData);
  const auto start = std::chrono::steady_clock::now();
  Status status = runGrid(grid, settings);
  info.durationNs = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count());
  if (hooks.exit) hooks.exit(&info, hooks.userData);
  return status;
}

Status prefixed(const Function& function, Status status) {
  if (status.ok()) return status;
  return Status(status.code(), concat("kernel '", function.name, "': ", status.message()));
}

} // namespace

Status CpuBackend::launch(const std::shared_ptr<Function>& function, unsigned gridDimX,
                          unsigned gridDimY, unsigned gridDimZ, unsigned blockDimX,
                          unsigned blockDimY, unsigned blockDimZ, unsigned sharedMemBytes,
                          tcpuStream hStream, void** kernelParams, void** extra) {
  RuntimeState& state = runtime();
  const std::string& name = function->name;
  if (blockDimX == 0 || blockDimY == 0 || blockDimZ == 0)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("kernel '", name, "': block dimensions (", blockDimX, ", ", blockDimY,
                         ", ", blockDimZ,
                         ") must be >= 1 (they are otherwise ignored on the CPU)"));
  if (sharedMemBytes > TCPU_MAX_SCRATCH_BYTES)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("kernel '", name, "': sharedMemBytes=", sharedMemBytes,
                         " exceeds the maximum scratch of ", TCPU_MAX_SCRATCH_BYTES, " bytes"));
  uint64_t programs = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(gridDimX), static_cast<uint64_t>(gridDimY),
                             &programs) ||
      __builtin_mul_overflow(programs, static_cast<uint64_t>(gridDimZ), &programs))
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("kernel '", name, "': grid (", gridDimX, ", ", gridDimY, ", ", gridDimZ,
                         ") has more than 2^64 - 1 programs"));
  std::shared_ptr<Stream> stream;
  if (hStream) {
    stream = state.streams.find(hStream);
    if (!stream)
      return Status(TCPU_ERROR_INVALID_HANDLE,
                    concat("kernel '", name, "': hStream=", static_cast<const void*>(hStream),
                           " is not a live stream"));
  }
  ExtraOptions options;
  if (Status parsed = parseExtra(extra, options, name); !parsed.ok()) return parsed;
  std::vector<void*> unpacked;
  Expected<void* const*> params = resolveParams(*function, kernelParams, options, unpacked);
  if (!params) return params.status();
  if (programs == 0) return {}; // an empty grid launches nothing, as on the GPU

  GridLaunch grid{.entry = function->desc->entry,
                  .params = *params,
                  .grid = {gridDimX, gridDimY, gridDimZ},
                  .programs = programs,
                  .scratchBytes = sharedMemBytes,
                  .kernel = function->desc,
                  .cancel = options.cancel};
  LaunchSettings settings = state.settings.launchSettings().forKernel(function->flags());
  if (options.numThreads > 0) settings.numThreads = options.numThreads;
  if (!stream) {
    state.streams.waitForBlocking();
    std::optional<ParamCopy> aligned;
    if (!valuesAligned(*function->desc, *params)) {
      aligned.emplace(*function->desc, *params);
      grid.params = aligned->pointers();
    }
    return prefixed(*function, runWithHooks(*function, grid, settings, hooksNow(), nullptr));
  }
  // Queued: copy the argument values, since the caller may change them once we return.
  auto copy = std::make_shared<ParamCopy>(*function->desc, *params);
  grid.params = copy->pointers();
  stream->enqueue([function, copy, grid, settings, hooks = hooksNow(), hStream] {
    return prefixed(*function, runWithHooks(*function, grid, settings, hooks, hStream));
  });
  return {};
}

} // namespace tcpu::detail
