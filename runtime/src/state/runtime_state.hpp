// The process-wide runtime state: the CPU analog of CUDA's primary context.
#ifndef TCPU_SRC_RUNTIME_STATE_HPP
#define TCPU_SRC_RUNTIME_STATE_HPP

#include <atomic>

#include "memory/memory_map.hpp"
#include "settings/settings.hpp"
#include "state/event.hpp"
#include "state/handle_table.hpp"
#include "state/loader_registry.hpp"
#include "state/objects.hpp"
#include "state/stream.hpp"

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
