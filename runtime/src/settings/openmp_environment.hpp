// The OMP_* variables of the OpenMP runtime that runs tcpu's launches: it reads them itself at
// its first use, and takes a value it cannot parse for a warning, a default or worse (a list of
// threads it sizes its tables by). tcpu checks them first, so that a bad one is an error naming
// the variable and its value (tcpuInit fails with it) before the OpenMP runtime sees it.
#ifndef TCPU_SRC_OPENMP_ENVIRONMENT_HPP
#define TCPU_SRC_OPENMP_ENVIRONMENT_HPP

#include "tcpu/status.hpp"

namespace tcpu::detail {

// Every OMP_* variable of the OpenMP 5.2 specification that has a grammar (numbers, sizes,
// keywords, lists of them), checked against it and against bounds that keep memory bounded
// (OMP_NUM_THREADS entries at most 4096, OMP_STACKSIZE at most 1 GiB). Free text
// (OMP_AFFINITY_FORMAT, OMP_TOOL_LIBRARIES, OMP_ALLOCATOR, OMP_DEBUG) is left to the OpenMP
// runtime. TCPU_ERROR_INVALID_VALUE naming the first bad variable and its value.
Status checkOpenMpEnvironment();

} // namespace tcpu::detail

#endif // TCPU_SRC_OPENMP_ENVIRONMENT_HPP
