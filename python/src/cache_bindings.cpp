#include "cache_bindings.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "errors.hpp"
#include "library_loader.hpp"
#include "tcpu/frontend_cache.hpp"
#include "tcpu/tcpu.h"

namespace py = pybind11;
using tcpu::codegen::AutotuneResults;
using tcpu::codegen::EntryCompileLock;
using tcpu::codegen::FrontEndCache;

namespace tcpu::python {
namespace {

// The environment's cache; nullopt when there is none (TCPU_CACHE_DISABLE, no directory named).
std::optional<FrontEndCache> environmentCache(std::string_view context) {
  Expected<std::optional<FrontEndCache>> cache = FrontEndCache::fromEnvironment();
  if (!cache) throwStatus(cache.status(), context);
  return cache.take();
}

FrontEndCache requireCache(std::string_view context) {
  std::optional<FrontEndCache> cache = environmentCache(context);
  if (!cache) throw py::value_error(std::string(context) + ": there is no cache");
  return *cache;
}

std::optional<std::string> directory() {
  std::optional<FrontEndCache> cache = environmentCache("cache_directory");
  if (!cache) return std::nullopt;
  return cache->directory().string();
}

std::optional<std::string> distrust() {
  std::optional<FrontEndCache> cache = environmentCache("cache_distrust");
  return cache ? cache->distrust() : std::nullopt;
}

std::vector<std::pair<std::string, py::bytes>> variants(const std::string& entry) {
  std::vector<std::pair<std::string, py::bytes>> found;
  if (std::optional<FrontEndCache> cache = environmentCache("cache_variants"))
    for (FrontEndCache::Variant& variant : cache->variants(entry))
      found.emplace_back(std::move(variant.name), py::bytes(variant.metadata));
  return found;
}

std::unique_ptr<Kernel> load(const std::string& entry, const std::string& variant,
                             const std::string& name) {
  const FrontEndCache cache = requireCache("cache_load");
  Expected<std::filesystem::path> library = cache.libraryPath(entry, variant);
  if (!library) throwStatus(library.status(), "cache_load");
  Expected<std::string> image = cache.readLibrary(entry, variant);
  if (!image) throw py::value_error("cache_load: " + image.status().message());
  std::unique_ptr<Kernel> kernel = loadCheckedLibrary(library->string(), *image, name);
  cache.markUsed(entry, variant);
  return kernel;
}

// The compile lock of `entry` (EntryCompileLock), opened; None when there is no cache or the lock
// cannot be made.
std::unique_ptr<EntryCompileLock> compileLock(const std::string& entry) {
  std::optional<FrontEndCache> cache = environmentCache("cache_compile_lock");
  if (!cache) return nullptr;
  auto lock = std::make_unique<EntryCompileLock>(*cache, entry);
  if (!lock->opened()) return nullptr;
  return lock;
}

std::optional<std::string> readHost(const std::string& name) {
  std::optional<FrontEndCache> cache = environmentCache("cache_read_host");
  return cache ? cache->readHost(name) : std::nullopt;
}

void storeHost(const std::string& name, const std::string& text) {
  if (Status stored = requireCache("cache_store_host").storeHost(name, text); !stored.ok())
    throwStatus(stored, "cache_store_host");
}

std::optional<std::string> autotunePath(const std::string& name) {
  std::optional<AutotuneResults> results = AutotuneResults::fromEnvironment();
  if (!results) return std::nullopt;
  Expected<std::filesystem::path> path = results->path(name);
  if (!path) throwStatus(path.status(), "autotune_results_path");
  return path->string();
}

void autotuneStore(const std::string& name, const std::string& text) {
  std::optional<AutotuneResults> results = AutotuneResults::fromEnvironment();
  if (!results)
    throw py::value_error("autotune_results_store: no directory is named (TCPU_CACHE_DIR, "
                          "XDG_CACHE_HOME, HOME)");
  if (Status stored = results->store(name, text); !stored.ok())
    throwStatus(stored, "autotune_results_store");
}

} // namespace

void bindFrontEndCache(py::module_& module) {
  module.def(
      "check_environment",
      [] {
        // tcpuInit reads the runtime's and OpenMP's variables again.
        if (tcpuInit(0) != TCPU_SUCCESS) throw py::value_error(tcpuGetLastErrorDetail());
        if (Status cache = FrontEndCache::checkEnvironment(); !cache.ok())
          throw py::value_error(cache.message());
      },
      "ValueError naming the first of tcpu's (and OpenMP's) environment variables whose value "
      "is bad, and its value: what the front end checks before it compiles or loads a kernel.");
  module.def("cache_directory", &directory,
             "<cache>/python, the front end's part of the compile cache; None when "
             "TCPU_CACHE_DISABLE is on or no directory is named.");
  module.def("cache_distrust", &distrust,
             "Why the front end's cache may not be used (a directory of another user's, or "
             "writable by others), or None when it may.");
  module.def("cache_variants", &variants, py::arg("entry"),
             "[(variant, the bytes of its .json)] of entry `entry`, by name; [] when none.");
  module.def("cache_load", &load, py::arg("entry"), py::arg("variant"), py::arg("name"),
             "The kernel `name` of a variant's shared object, checked against the seal its "
             ".json records (entry, variant, size, checksum) and as an ELF file, then loaded "
             "without LLVM; marks the variant used. ValueError when it is damaged or cannot be "
             "loaded.");
  py::class_<EntryCompileLock>(module, "CacheCompileLock")
      .def(
          "acquire",
          [](EntryCompileLock& lock, double seconds) {
            py::gil_scoped_release unlocked;
            return lock.acquire(std::chrono::milliseconds(static_cast<long long>(seconds * 1e3)));
          },
          py::arg("seconds"),
          "Waits up to `seconds` for the lock (without the GIL); False when it is still held.")
      .def("release", &EntryCompileLock::release, "Lets the next waiter in.");
  module.def("cache_compile_lock", &compileLock, py::arg("entry"),
             "The lock a compile of entry `entry` holds (python/compile-<xx>.lock), opened but "
             "not taken; None when there is no cache or the file cannot be made.");
  module.def("cache_read_host", &readHost, py::arg("name"),
             "The text kept for host `name`, or None.");
  module.def("cache_store_host", &storeHost, py::arg("name"), py::arg("text"),
             "Keeps `text` for host `name` (atomically). OSError when it cannot be written.");
  module.def("autotune_results_path", &autotunePath, py::arg("name"),
             "Where the autotuner's results `name` are kept; None when no directory is named.");
  module.def("autotune_results_store", &autotuneStore, py::arg("name"), py::arg("text"),
             "Writes the autotuner's results `name` (atomically). OSError when that fails.");
}

} // namespace tcpu::python
