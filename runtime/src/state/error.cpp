#include "state/error.hpp"

#include "tcpu/module_loader.hpp"

#include <string>

namespace tcpu::detail {
namespace {

thread_local std::string lastErrorDetail;

struct ResultText {
  tcpuResult code;
  const char* name;
  const char* text;
};

constexpr ResultText kResultTexts[] = {
    {TCPU_SUCCESS, "TCPU_SUCCESS", "no error"},
    {TCPU_ERROR_INVALID_VALUE, "TCPU_ERROR_INVALID_VALUE", "invalid argument"},
    {TCPU_ERROR_OUT_OF_MEMORY, "TCPU_ERROR_OUT_OF_MEMORY", "out of memory"},
    {TCPU_ERROR_NOT_INITIALIZED, "TCPU_ERROR_NOT_INITIALIZED", "tcpuInit has not been called"},
    {TCPU_ERROR_NO_DEVICE, "TCPU_ERROR_NO_DEVICE", "no such device"},
    {TCPU_ERROR_INVALID_DEVICE, "TCPU_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {TCPU_ERROR_INVALID_IMAGE, "TCPU_ERROR_INVALID_IMAGE", "not a valid tcpu module image"},
    {TCPU_ERROR_INVALID_CONTEXT, "TCPU_ERROR_INVALID_CONTEXT",
     "the context was destroyed, or the object belongs to another context"},
    {TCPU_ERROR_INVALID_SOURCE, "TCPU_ERROR_INVALID_SOURCE", "invalid kernel source"},
    {TCPU_ERROR_FILE_NOT_FOUND, "TCPU_ERROR_FILE_NOT_FOUND", "file not found"},
    {TCPU_ERROR_OPERATING_SYSTEM, "TCPU_ERROR_OPERATING_SYSTEM", "an OS call failed"},
    {TCPU_ERROR_INVALID_HANDLE, "TCPU_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {TCPU_ERROR_NOT_FOUND, "TCPU_ERROR_NOT_FOUND", "named symbol not found"},
    {TCPU_ERROR_NOT_READY, "TCPU_ERROR_NOT_READY", "operation not yet complete"},
    {TCPU_ERROR_NOT_PERMITTED, "TCPU_ERROR_NOT_PERMITTED", "operation not permitted here"},
    {TCPU_ERROR_ILLEGAL_ADDRESS, "TCPU_ERROR_ILLEGAL_ADDRESS",
     "a kernel accessed memory outside a buffer"},
    {TCPU_ERROR_ASSERT, "TCPU_ERROR_ASSERT", "a device-side assert failed"},
    {TCPU_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "TCPU_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
     "part of the range is already registered or allocated"},
    {TCPU_ERROR_HOST_MEMORY_NOT_REGISTERED, "TCPU_ERROR_HOST_MEMORY_NOT_REGISTERED",
     "the pointer is not the start of a registered range"},
    {TCPU_ERROR_LAUNCH_FAILED, "TCPU_ERROR_LAUNCH_FAILED", "kernel launch failed"},
    {TCPU_ERROR_NOT_SUPPORTED, "TCPU_ERROR_NOT_SUPPORTED", "operation not supported"},
    {TCPU_ERROR_UNKNOWN, "TCPU_ERROR_UNKNOWN", "unknown error"},
    {TCPU_ERROR_CANCELLED, "TCPU_ERROR_CANCELLED", "the launch was cancelled"},
};

const ResultText* findResult(tcpuResult code) {
  for (const ResultText& entry : kResultTexts)
    if (entry.code == code) return &entry;
  return nullptr;
}

// tcpuGetErrorName and tcpuGetErrorString: one field of the code's entry.
tcpuResult describeResult(const char* api, tcpuResult error, const char** pStr,
                          const char* ResultText::* field) {
  if (!pStr) return fail(TCPU_ERROR_INVALID_VALUE, api, ": pStr is NULL");
  const ResultText* entry = findResult(error);
  if (!entry) {
    *pStr = nullptr;
    return fail(TCPU_ERROR_INVALID_VALUE, api, ": ", static_cast<int>(error),
                " is not a tcpuResult");
  }
  *pStr = entry->*field;
  return TCPU_SUCCESS;
}

} // namespace

tcpuResult report(const Status& status) {
  if (!status.ok()) lastErrorDetail = status.message();
  return status.code();
}

} // namespace tcpu::detail

tcpuResult tcpu::reportStatus(const Status& status) {
  return detail::report(status);
}

using namespace tcpu::detail;

extern "C" {

tcpuResult tcpuGetErrorName(tcpuResult error, const char** pStr) {
  return describeResult("tcpuGetErrorName", error, pStr, &ResultText::name);
}

tcpuResult tcpuGetErrorString(tcpuResult error, const char** pStr) {
  return describeResult("tcpuGetErrorString", error, pStr, &ResultText::text);
}

const char* tcpuGetLastErrorDetail(void) {
  return lastErrorDetail.c_str();
}

} // extern "C"
