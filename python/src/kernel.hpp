// Kernel (of _tcpu and _tcpu_rt): one kernel of a loaded module, owning the module, and its launch
// from Python (arguments converted by codes, then tcpuLaunchKernel).
#ifndef TCPU_PYTHON_KERNEL_HPP
#define TCPU_PYTHON_KERNEL_HPP

#include <memory>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "arg_codes.hpp"
#include "tcpu/tcpu.h"

namespace tcpu::python {

class Kernel {
public:
  // Takes `module` (unloaded with the kernel, or at once if this throws) and finds its kernel
  // `name`; raises Error (TCPU_ERROR_NOT_FOUND) naming `context`.
  Kernel(tcpuModule module, const std::string& name, const std::string& context);

  // Runs the grid on this thread's current context and waits for it.
  void launch(pybind11::handle gx, pybind11::handle gy, pybind11::handle gz,
              pybind11::handle numThreads, pybind11::handle codes, pybind11::handle args);

  const std::string& name() const { return name_; }
  size_t numParams() const { return params_.size(); }
  // Whether codegen found that the kernel's programs wait for each other (a spin lock):
  // TCPU_KERNEL_PROGRAMS_WAIT, which the runtime deals in launch order.
  bool programsWait() const;

private:
  struct Unload {
    void operator()(tcpuModule module) const { tcpuModuleUnload(module); }
  };
  // The codes for this launch: parsed and checked once per codes string.
  const std::vector<ArgCode>& codesFor(pybind11::handle codes);

  std::string name_;
  std::unique_ptr<tcpuModule_st, Unload> module_;
  tcpuFunction function_ = nullptr;
  std::vector<tcpuParamDesc> params_; // names valid while module_ lives
  pybind11::object lastCodes_;        // the str codes_ was parsed from
  std::vector<ArgCode> codes_;
};

} // namespace tcpu::python

#endif // TCPU_PYTHON_KERNEL_HPP
