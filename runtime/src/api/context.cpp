// tcpuCtx* entry points.
#include "api/context.hpp"

#include <cstring>

#include "cpu/cpu_backend.hpp"
#include "cuda/cuda_backend.hpp"
#include "state/error.hpp"
#include "state/runtime_state.hpp"

namespace tcpu::detail {
namespace {

// A context handle's object: its backend, the CPU's or a CUDA context.
struct Context {
  std::shared_ptr<Backend> backend;
};

HandleTable<Context, tcpuContext>& contexts() {
  static auto* const table = new HandleTable<Context, tcpuContext>(); // outlives exit's streams
  return *table;
}

// The calling thread's current context: null for the CPU context.
thread_local std::shared_ptr<Context> tCurrent;

std::shared_ptr<Context> findContext(tcpuContext handle) {
  return handle ? contexts().find(handle) : nullptr;
}

tcpuResult invalidContext(const char* api, tcpuContext ctx) {
  return fail(TCPU_ERROR_INVALID_CONTEXT, api, ": ctx=", static_cast<const void*>(ctx),
              " is not a live context (destroyed, or another kind of handle)");
}

} // namespace

const std::shared_ptr<Backend>& currentBackend() {
  return tCurrent ? tCurrent->backend : cpuBackend();
}

Status wrongContext(const std::string& what, const Backend& owner) {
  return Status(TCPU_ERROR_INVALID_CONTEXT,
                concat(what, " belongs to ", owner.nameInMessages(), " but the current context is ",
                       currentBackend()->nameInMessages(), " (tcpuCtxSetCurrent chooses)"));
}

} // namespace tcpu::detail

using namespace tcpu;
using namespace tcpu::detail;

extern "C" {

tcpuResult tcpuCtxCreate(tcpuContext* ctx, unsigned int backends, int ordinal) {
  return initializedApi("tcpuCtxCreate", [&]() -> tcpuResult {
    if (!ctx) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuCtxCreate: ctx is NULL");
    constexpr unsigned kKnown = TCPU_BACKEND_CPU | TCPU_BACKEND_CUDA;
    if (backends == 0 || (backends & ~kKnown) != 0)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuCtxCreate: backends=0x", std::hex, backends,
                  " is not TCPU_BACKEND_CPU, TCPU_BACKEND_CUDA or both");
    auto context = std::make_shared<Context>();
    if (backends & TCPU_BACKEND_CUDA) {
      Expected<std::shared_ptr<CudaContext>> cuda = CudaContext::create(ordinal);
      if (cuda) {
        context->backend = cuda.take();
      } else if (!(backends & TCPU_BACKEND_CPU) || cuda.status().code() != TCPU_ERROR_NO_DEVICE) {
        return fail(cuda.status().code(), "tcpuCtxCreate: TCPU_BACKEND_CUDA ordinal ", ordinal,
                    ": ", cuda.status().message());
      }
    }
    if (!context->backend) context->backend = cpuBackend();
    if (context->backend->sharedByProcess() && ordinal != 0)
      return fail(TCPU_ERROR_INVALID_DEVICE, "tcpuCtxCreate: TCPU_BACKEND_CPU ordinal=", ordinal,
                  " but the CPU backend has one device, ordinal 0");
    *ctx = contexts().insert(context);
    tCurrent = std::move(context);
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuCtxDestroy(tcpuContext ctx) {
  return initializedApi("tcpuCtxDestroy", [&] {
    std::shared_ptr<Context> context = contexts().remove(ctx);
    if (!context) return invalidContext("tcpuCtxDestroy", ctx);
    if (tCurrent == context) tCurrent.reset();
    if (context->backend->sharedByProcess()) return TCPU_SUCCESS; // the CPU state is the process's
    // Its modules go first (their functions with them), while the GPU context still lives.
    for (const tcpuModule handle : runtime().modules.handlesWhere(
             [&](const Module& module) { return module.backend == context->backend; }))
      (void)tcpuModuleUnload(handle); // fails only for one unloaded meanwhile: nothing to do
    return reportAs("tcpuCtxDestroy", context->backend->destroy());
  });
}

tcpuResult tcpuCtxSetCurrent(tcpuContext ctx) {
  return initializedApi("tcpuCtxSetCurrent", [&] {
    if (!ctx) {
      tCurrent.reset();
      return TCPU_SUCCESS;
    }
    std::shared_ptr<Context> context = findContext(ctx);
    if (!context) return invalidContext("tcpuCtxSetCurrent", ctx);
    tCurrent = std::move(context);
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuCtxGetCurrent(tcpuContext* ctx) {
  return initializedApi("tcpuCtxGetCurrent", [&] {
    if (!ctx) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuCtxGetCurrent: ctx is NULL");
    *ctx = nullptr;
    if (tCurrent)
      for (const tcpuContext handle : contexts().handlesWhere(
               [&](const Context& context) { return &context == tCurrent.get(); }))
        *ctx = handle;
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuCtxGetBackend(tcpuBackend* backend, tcpuContext ctx) {
  return initializedApi("tcpuCtxGetBackend", [&] {
    if (!backend) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuCtxGetBackend: backend is NULL");
    if (!ctx) {
      *backend = TCPU_BACKEND_CPU;
      return TCPU_SUCCESS;
    }
    std::shared_ptr<Context> context = findContext(ctx);
    if (!context) return invalidContext("tcpuCtxGetBackend", ctx);
    *backend = context->backend->kind();
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuCtxGetName(char* name, int len, tcpuContext ctx) {
  return initializedApi("tcpuCtxGetName", [&] {
    if (!name || len <= 0)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuCtxGetName: name is NULL or len=", len,
                  " is not positive");
    std::string text;
    if (!ctx) {
      text = cpuBackend()->description();
    } else {
      std::shared_ptr<Context> context = findContext(ctx);
      if (!context) return invalidContext("tcpuCtxGetName", ctx);
      text = context->backend->description();
    }
    const size_t copied = std::min(text.size(), static_cast<size_t>(len - 1));
    std::memcpy(name, text.data(), copied);
    name[copied] = '\0';
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuCtxSynchronize(void) {
  return initializedApi("tcpuCtxSynchronize", [&] {
    return reportAs("tcpuCtxSynchronize", currentBackend()->synchronize());
  });
}

} // extern "C"
