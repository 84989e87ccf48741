#include "state/runtime_state.hpp"

#include "state/error.hpp"

namespace tcpu::detail {

RuntimeState& runtime() {
  static RuntimeState* const state = new RuntimeState();
  return *state;
}

bool isInitialized() {
  return runtime().initialized.load(std::memory_order_acquire);
}

uint64_t nextHandleId() {
  // Start away from zero so small integers passed as handles are never valid.
  static std::atomic<uint64_t> next{0x1000};
  return next.fetch_add(1, std::memory_order_relaxed);
}

} // namespace tcpu::detail

using namespace tcpu;
using namespace tcpu::detail;

extern "C" {

tcpuResult tcpuInit(unsigned int flags) {
  return guarded("tcpuInit", [&] {
    if (flags != 0) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuInit: flags=", flags, " must be 0");
    RuntimeState& state = runtime();
    if (Status loaded = state.settings.loadEnvironment(); !loaded.ok())
      return fail(loaded.code(), "tcpuInit: ", loaded.message());
    state.initialized.store(true, std::memory_order_release);
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuDriverGetVersion(int* version) {
  if (!version) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuDriverGetVersion: version is NULL");
  *version = TCPU_VERSION_MAJOR * 1000 + TCPU_VERSION_MINOR * 10 + TCPU_VERSION_PATCH;
  return TCPU_SUCCESS;
}

} // extern "C"
