// Contexts (tcpuCtx*): which backend the calling thread's API calls go to. The CPU context is
// the process's runtime state (runtime_state.hpp) and the default; a CUDA context is a
// CudaContext. Each thread's current context is its own, as in CUDA.
#ifndef TCPU_SRC_CONTEXT_HPP
#define TCPU_SRC_CONTEXT_HPP

#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "state/error.hpp"

namespace tcpu::detail {

// The calling thread's current context's backend: the CPU's while no other context is current.
// Only this thread changes its current context, so the backend lives at least until the API
// call that asked returns, unless that call is the one that destroys it.
const std::shared_ptr<Backend>& currentBackend();

// The detail for an object of the `owner` context used while another kind of context is
// current.
Status wrongContext(const std::string& what, const Backend& owner);

// Reports `status` as `api`'s failure, or returns TCPU_SUCCESS. Inline: every call ends here.
inline tcpuResult reportAs(const char* api, const Status& status) {
  return status.ok() ? TCPU_SUCCESS : fail(status.code(), api, ": ", status.message());
}

} // namespace tcpu::detail

#endif // TCPU_SRC_CONTEXT_HPP
