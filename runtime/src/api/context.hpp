// Contexts (tcpuCtx*): which backend the calling thread's API calls go to. The CPU context is
// the process's runtime state (runtime_state.hpp) and the default; a CUDA context is a
// CudaContext. Each thread's current context is its own, as in CUDA.
#ifndef TCPU_SRC_CONTEXT_HPP
#define TCPU_SRC_CONTEXT_HPP

#include <memory>
#include <string>

#include "cuda/cuda_backend.hpp"

namespace tcpu::detail {

// The calling thread's current CUDA context, or nullptr while the CPU context is current.
std::shared_ptr<CudaContext> currentCuda();

// For messages: "the CPU context" or the CUDA context's description.
std::string describeCurrentContext();

// The detail for a CPU object used while a CUDA context is current, and the reverse.
Status wrongContext(const std::string& what, const CudaContext* owner);

// Reports `status` as `api`'s failure, or returns TCPU_SUCCESS.
tcpuResult reportAs(const char* api, const Status& status);

} // namespace tcpu::detail

#endif // TCPU_SRC_CONTEXT_HPP
