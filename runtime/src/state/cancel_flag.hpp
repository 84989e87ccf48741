// Cancel flags (tcpuCancelFlag): raised and lowered from any thread or a signal handler, read by
// the launches that were given one.
#ifndef TCPU_SRC_CANCEL_FLAG_HPP
#define TCPU_SRC_CANCEL_FLAG_HPP

#include "tcpu/tcpu.h"

namespace tcpu::detail {

// Whether `flag` (null: a launch without one) is raised.
bool cancelRaised(const tcpuCancelFlag* flag);

} // namespace tcpu::detail

#endif // TCPU_SRC_CANCEL_FLAG_HPP
