// Opens a shared object once in a short-lived child process before the process itself opens it.
#ifndef TCPU_SRC_DLOPEN_PROBE_HPP
#define TCPU_SRC_DLOPEN_PROBE_HPP

#include <string>

#include "tcpu/module_loader.hpp"

namespace tcpu::detail {

// Linux (elsewhere it returns success at once): forks, and dlopens `path` (RTLD_NOW | RTLD_LOCAL)
// in the child. The dynamic loader trusts the file and ends the process on what it cannot handle:
// it asserts and exits with status 127
// ("Inconsistency detected by ld.so") or faults while mapping and relocating. The checks of
// shared_object_loader.cpp catch what is known; the probe catches the rest, so that a damaged
// image is refused with TCPU_ERROR_INVALID_IMAGE (carrying what the loader printed) instead of
// ending the caller's process. A child that opens the image, or whose dlopen returns an error
// (the caller's dlopen will return the same one), counts as success.
//
// The image's initializers run in the child too (their output is captured, not shown).
Status probeDlopen(const std::string& path);

} // namespace tcpu::detail

#endif // TCPU_SRC_DLOPEN_PROBE_HPP
