// `tcpu run`'s --arg and --buffer values. An --arg per kernel parameter, in order: a pointer
// takes a .npy file, a generator (zeros:N, arange:N, rand:N, full:N:VALUE, values:V,V,...) of
// its element type, or an address table (ptrs:NAME,NAME,...: the device addresses of other
// buffers, for kernels that take arrays of pointers); a scalar takes a number of its type.
// A --buffer NAME:TYPE=GENERATOR or NAME=FILE.npy is a buffer that is no parameter: it exists
// for the address tables to point at, and is written back like the parameters' buffers.
#ifndef TCPU_TOOLS_RUN_ARGUMENTS_HPP
#define TCPU_TOOLS_RUN_ARGUMENTS_HPP

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "formats/npy.hpp"
#include "run/scalar_value.hpp"

namespace tcpu::cli {

struct KernelParameter {
  std::string name; // the kernel's name for it, or "arg<i>" where it has none
  tcpuParamDesc desc{};
};

// The parameters of a loaded kernel (tcpuFuncGetParamCount / tcpuFuncGetParamInfo).
Expected<std::vector<KernelParameter>> kernelParameters(tcpuFunction function);

// "x: *fp32", "n: i32"; "*?" for a pointer of unknown element type.
std::string describeParameter(const KernelParameter& parameter);

// ptrs:NAME,...: a buffer of 64-bit integers, the device addresses of the named buffers (other
// pointer parameters or --buffer buffers), in order. Addresses differ from run to run, so the
// table is neither compared nor written out.
struct AddressTable {
  std::vector<std::string> buffers;
};

// A pointer argument's elements (with their shape, kept for the output), an address table, or
// a scalar.
using RunArgument = std::variant<NpyArray, ScalarValue, AddressTable>;

// Parses the value of parameter `index`. Errors name "--arg <index+1> (<parameter>)" and the
// text; a .npy file that cannot be read gives TCPU_ERROR_FILE_NOT_FOUND or
// TCPU_ERROR_OPERATING_SYSTEM, one that is malformed TCPU_ERROR_INVALID_IMAGE, everything else
// (bad text, wrong dtype, unknown element type) TCPU_ERROR_INVALID_VALUE. rand draws from a
// generator seeded with (seed, index), so each buffer is reproducible on its own.
Expected<RunArgument> parseRunArgument(const KernelParameter& parameter, std::size_t index,
                                       const std::string& text, uint64_t seed);

// A --buffer: its name and elements.
struct NamedBuffer {
  std::string name;
  NpyArray array;
};

// Parses one --buffer value, NAME:TYPE=GENERATOR or NAME[:TYPE]=FILE.npy, NAME being
// [A-Za-z0-9_-]+. rand draws from a generator seeded with (seed, streamIndex). Errors as
// parseRunArgument's, naming "--buffer <NAME>".
Expected<NamedBuffer> parseNamedBuffer(const std::string& text, std::size_t streamIndex,
                                       uint64_t seed);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_RUN_ARGUMENTS_HPP
