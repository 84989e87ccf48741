// The process-wide runtime state: the CPU analog of CUDA's primary context.
#ifndef TCPU_SRC_RUNTIME_STATE_HPP
#define TCPU_SRC_RUNTIME_STATE_HPP

#include <atomic>

#include "event.hpp"
#include "handle_table.hpp"
#include "loader_registry.hpp"
#include "memory_map.hpp"
#include "objects.hpp"
#include "settings.hpp"
#include "stream.hpp"

namespace tcpu::detail {

struct RuntimeState {
  std::atomic<bool> initialized{false};
  Settings settings;
  LoaderRegistry loaders;
  MemoryMap memory;
  HandleTable<Module, tcpuModule> modules;
  HandleTable<Function, tcpuFunction> functions;
  StreamSet streams;
  HandleTable<Event, tcpuEvent> events;
};

// Created on first use and never destroyed: streams may still be running
// work while static destructors run at exit, and loaders may register from
// static initializers of other libraries before main.
RuntimeState& runtime();

} // namespace tcpu::detail

#endif // TCPU_SRC_RUNTIME_STATE_HPP
