#include "state/loader_registry.hpp"

#include <algorithm>

#include "modules/shared_object_loader.hpp"
#include "state/runtime_state.hpp"

namespace tcpu::detail {
namespace {

std::string describeHead(std::span<const std::byte> bytes) {
  ClassicStream out;
  out << std::hex;
  for (std::size_t i = 0; i < std::min<std::size_t>(bytes.size(), 4); ++i)
    out << (i ? " " : "") << "0x" << static_cast<unsigned>(bytes[i]);
  return out.str();
}

} // namespace

LoaderRegistry::LoaderRegistry() {
  loaders_.push_back(std::make_shared<SharedObjectLoader>());
}

void LoaderRegistry::add(std::shared_ptr<const ModuleLoader> loader) {
  std::lock_guard lock(mutex_);
  auto same = std::find_if(loaders_.begin(), loaders_.end(), [&](const auto& existing) {
    return existing->formatName() == loader->formatName();
  });
  if (same != loaders_.end())
    *same = std::move(loader);
  else
    loaders_.push_back(std::move(loader));
}

Expected<std::unique_ptr<LoadedModule>> LoaderRegistry::load(const ModuleSource& source) const {
  std::vector<std::shared_ptr<const ModuleLoader>> loaders;
  {
    std::lock_guard lock(mutex_);
    loaders = loaders_;
  }
  std::string formats;
  for (const auto& loader : loaders) {
    if (loader->accepts(source)) return loader->load(source);
    formats += concat(formats.empty() ? "" : ", ", loader->formatName());
  }
  const bool onlyBuiltIn = loaders.size() == 1;
  return Status(
      TCPU_ERROR_INVALID_IMAGE,
      concat("not a module in any known format (first bytes: ", describeHead(source.bytes),
             "; formats: ", formats,
             onlyBuiltIn ? "; LLVM IR and kernel source load once tcpu_codegen is linked" : "",
             ")"));
}

} // namespace tcpu::detail

namespace tcpu {

void registerModuleLoader(std::shared_ptr<const ModuleLoader> loader) {
  if (loader) detail::runtime().loaders.add(std::move(loader));
}

} // namespace tcpu
