// What `tcpu link` writes: C dispatchers over the specializations `tcpu compile`
// made, in the shape of Triton's link.py. Per kernel and algorithm (equal
// constexprs and meta), {kernel}_{algo_info}(stream, args...) calls the most
// specialized launcher whose assumptions (aligned, divisible by 16, equal to 1)
// the arguments meet; per kernel, {kernel}(stream, args..., algo_id) picks an
// algorithm, {kernel}_default runs algorithm 0, and load_/unload_{kernel}
// load or unload every specialization.
#ifndef TCPU_TOOLS_DISPATCHER_WRITER_HPP
#define TCPU_TOOLS_DISPATCHER_WRITER_HPP

#include <string>
#include <vector>

#include "aot/linker_header.hpp"

namespace tcpu::cli {

struct LinkedAlgorithm {
  std::string algorithm;                       // algo_info: 1024_threads0xtargethost
  std::string dispatcher;                      // add_kernel_1024_threads0xtargethost
  std::vector<Specialization> specializations; // tried in this order: most hints first
};

struct LinkedKernel {
  std::string name; // out_name
  std::vector<KernelArgument> arguments;
  std::vector<LinkedAlgorithm> algorithms; // indexed by algo_id: order of first appearance
};

// Groups specializations (in input order) into kernels and algorithms. Fails with
// TCPU_ERROR_INVALID_VALUE, naming both inputs, when one function is given twice, when
// specializations of one kernel disagree on the full signature, when two specializations of
// one algorithm make the same assumptions (the second could never run), or when a generated
// name would clash with another.
Expected<std::vector<LinkedKernel>> planDispatchers(const std::vector<Specialization>& inputs);

// NAME.h: declarations of every dispatcher, usable from C and C++. `headerName` is NAME.h's
// file name (for the include guard); `inputs` the linked headers (for the comment).
std::string writeDispatcherHeader(const std::vector<LinkedKernel>& kernels,
                                  const std::string& headerName,
                                  const std::vector<std::string>& inputs);

// NAME.c: the dispatchers, declaring the specializations itself so that the inputs need not
// be on the include path. Includes "headerName".
std::string writeDispatcherSource(const std::vector<LinkedKernel>& kernels,
                                  const std::string& headerName);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_DISPATCHER_WRITER_HPP
