// What the host CPU is: its model name and the ISA features that matter for
// code generation, read without LLVM.
#ifndef TCPU_SRC_CPU_HOST_CPU_HPP
#define TCPU_SRC_CPU_HOST_CPU_HPP

#include <string>

namespace tcpu::detail {

std::string hostCpuName();
// Space-separated feature names ("sse4.2 avx avx2 fma avx512f ...").
std::string hostCpuFeatures();
int hostVectorBits();

} // namespace tcpu::detail

#endif // TCPU_SRC_CPU_HOST_CPU_HPP
