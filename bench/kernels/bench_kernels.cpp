// Kernels measured by tcpu_bench, loaded through tcpuModuleLoad.
#include "empty_kernel.hpp"
#include "tcpu/kernel.hpp"

TCPU_EXPORT_KERNEL_AS(empty, tcpu::bench::emptyKernel)
