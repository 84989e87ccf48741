// The runtime objects behind module and function handles.
#ifndef TCPU_SRC_OBJECTS_HPP
#define TCPU_SRC_OBJECTS_HPP

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "tcpu/module_loader.hpp"

namespace tcpu::detail {

class Backend;

struct Module {
  std::shared_ptr<Backend> backend; // the backend (context) it was loaded on; its launches go there
  std::string origin;               // the path, or "<memory image>", for messages
  std::unique_ptr<LoadedModule> image;

  std::mutex mutex; // guards the two fields below
  bool unloaded = false;
  std::unordered_map<std::string, tcpuFunction> functions;
  std::unordered_map<int, std::string> texts; // tcpuModuleGetText results, kept until unload
};

struct Function {
  std::shared_ptr<Module> module; // keeps the code loaded while a launch holds this
  const tcpuKernelDesc* desc;
  std::string name;

  // The descriptor's flags (TCPU_KERNEL_PROGRAMS_WAIT): the field exists from ABI v2 on, and
  // module loading refuses other versions.
  uint32_t flags() const { return desc->abiVersion >= 2 ? desc->flags : 0; }
};

} // namespace tcpu::detail

#endif // TCPU_SRC_OBJECTS_HPP
