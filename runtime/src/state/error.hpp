// Turning internal Status values into the C API's results and its per-thread
// error detail, and guarding every API entry point.
#ifndef TCPU_SRC_ERROR_HPP
#define TCPU_SRC_ERROR_HPP

#include <exception>
#include <new>
#include <system_error>

#include "tcpu/status.hpp"

namespace tcpu::detail {

// Records `status` as this thread's last error (if it failed) and returns its code.
tcpuResult report(const Status& status);

// Shorthand for building and reporting a failure.
template <class... Parts>
tcpuResult fail(tcpuResult code, const Parts&... parts) {
  return report(Status(code, concat(parts...)));
}

bool isInitialized();

// Runs an API body; exceptions never cross the C boundary.
template <class Body>
tcpuResult guarded(const char* api, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(TCPU_ERROR_OUT_OF_MEMORY, api, ": out of memory");
  } catch (const std::system_error& e) { // e.g. no thread could be created
    return fail(TCPU_ERROR_OPERATING_SYSTEM, api, ": ", e.what());
  } catch (const std::exception& e) {
    return fail(TCPU_ERROR_UNKNOWN, api, ": internal error: ", e.what());
  } catch (...) {
    return fail(TCPU_ERROR_UNKNOWN, api, ": internal error");
  }
}

// As guarded(), and first checks that tcpuInit has run.
template <class Body>
tcpuResult initializedApi(const char* api, Body&& body) noexcept {
  if (!isInitialized()) [[unlikely]]
    return fail(TCPU_ERROR_NOT_INITIALIZED, api, ": call tcpuInit(0) first");
  return guarded(api, static_cast<Body&&>(body));
}

} // namespace tcpu::detail

#endif // TCPU_SRC_ERROR_HPP
