// A second module, to check that loading a path again reads the file again.
#include <cstdint>

#include "tcpu/kernel.hpp"

void alt_only(uint32_t* out, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) {
  *out = 7;
}
TCPU_EXPORT_KERNEL(alt_only)
