// `tcpu run`'s arguments on the device: a buffer for every array (the parameters' and the
// --buffer ones), address tables filled with those buffers' device addresses, and the
// kernelParams array pointing at it all.
#ifndef TCPU_TOOLS_LAUNCH_ARGUMENTS_HPP
#define TCPU_TOOLS_LAUNCH_ARGUMENTS_HPP

#include <string>
#include <vector>

#include "run/run_arguments.hpp"
#include "run/runtime_session.hpp"

namespace tcpu::cli {

// params() points into this object's vectors and into the scalars of the values uploaded:
// moving it keeps the vectors' storage, and the values must outlive it.
class LaunchArguments {
public:
  // Uploads `values` (one per parameter; parameterNames[i] is parameter i's buffer name) and
  // `buffers`. An address table naming no array, or another table, is TCPU_ERROR_INVALID_VALUE
  // naming the parameter and the name.
  static Expected<LaunchArguments> upload(std::vector<RunArgument>& values,
                                          const std::vector<std::string>& parameterNames,
                                          const std::vector<NamedBuffer>& buffers);

  // Copies the arrays back into the values and buffers they came from (not the tables).
  Status download(std::vector<RunArgument>& values, std::vector<NamedBuffer>& buffers) const;

  void** params() { return params_.data(); }

private:
  std::vector<DeviceBuffer> allocations_;
  std::vector<tcpuDeviceptr> pointers_;       // kernelParams[i] points here for pointer i
  std::vector<tcpuDeviceptr> bufferPointers_; // the --buffer buffers'
  std::vector<void*> params_;
};

} // namespace tcpu::cli

#endif // TCPU_TOOLS_LAUNCH_ARGUMENTS_HPP
