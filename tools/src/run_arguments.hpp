// `tcpu run`'s --arg values: one per kernel parameter, in order. A pointer takes a .npy file or
// a generator (zeros:N, arange:N, rand:N, full:N:VALUE) of the parameter's element type; a
// scalar takes a number of its type.
#ifndef TCPU_TOOLS_RUN_ARGUMENTS_HPP
#define TCPU_TOOLS_RUN_ARGUMENTS_HPP

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "npy.hpp"
#include "scalar_value.hpp"

namespace tcpu::cli {

struct KernelParameter {
  std::string name; // the kernel's name for it, or "arg<i>" where it has none
  tcpuParamDesc desc{};
};

// The parameters of a loaded kernel (tcpuFuncGetParamCount / tcpuFuncGetParamInfo).
Expected<std::vector<KernelParameter>> kernelParameters(tcpuFunction function);

// "x: *fp32", "n: i32"; "*?" for a pointer of unknown element type.
std::string describeParameter(const KernelParameter& parameter);

// A pointer argument's elements (with their shape, kept for the output), or a scalar.
using RunArgument = std::variant<NpyArray, ScalarValue>;

// Parses the value of parameter `index`. Errors name "--arg <index+1> (<parameter>)" and the
// text; a .npy file that cannot be read gives TCPU_ERROR_FILE_NOT_FOUND or
// TCPU_ERROR_OPERATING_SYSTEM, one that is malformed TCPU_ERROR_INVALID_IMAGE, everything else
// (bad text, wrong dtype, unknown element type) TCPU_ERROR_INVALID_VALUE. rand draws from a
// generator seeded with (seed, index), so each buffer is reproducible on its own.
Expected<RunArgument> parseRunArgument(const KernelParameter& parameter, std::size_t index,
                                       const std::string& text, uint64_t seed);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_RUN_ARGUMENTS_HPP
