// The check tcpuModuleLoad gives a shared object's bytes before it opens one, for a caller that
// opens the file itself (the Python front end's cache of compiled kernels).
#ifndef TCPU_SHARED_OBJECT_IMAGE_HPP
#define TCPU_SHARED_OBJECT_IMAGE_HPP

#include <cstddef>
#include <span>

#include "tcpu/export.h"
#include "tcpu/status.hpp"

namespace tcpu {

// On 64-bit Linux: the ELF headers, segments and the tables the dynamic loader reads, as
// tcpuModuleLoad checks them (a truncated or garbled file fails here instead of crashing
// dlopen); elsewhere nothing. TCPU_ERROR_INVALID_IMAGE naming what is wrong. Never opens it.
TCPU_API Status checkSharedObjectImage(std::span<const std::byte> bytes);

} // namespace tcpu

#endif // TCPU_SHARED_OBJECT_IMAGE_HPP
