#include "shared_object_loader.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace tcpu::detail {
namespace {

class SharedObjectModule final : public LoadedModule {
public:
  explicit SharedObjectModule(void* handle) : handle_(handle) {}
  ~SharedObjectModule() override { dlclose(handle_); }
  SharedObjectModule(const SharedObjectModule&) = delete;
  SharedObjectModule& operator=(const SharedObjectModule&) = delete;

  const tcpuKernelDesc* findKernel(const std::string& name) const override {
    const std::string symbol = TCPU_KERNEL_DESC_PREFIX + name;
    return static_cast<const tcpuKernelDesc*>(dlsym(handle_, symbol.c_str()));
  }
  // dlopen offers no portable way to list symbols; kernels are found by name.
  std::vector<std::string> kernelNames() const override { return {}; }

private:
  void* handle_;
};

Expected<std::unique_ptr<LoadedModule>> openShared(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    return Status(TCPU_ERROR_INVALID_IMAGE, concat("the shared object cannot be loaded: ",
                                                   why ? why : "unknown dlopen error"));
  }
  return std::unique_ptr<LoadedModule>(new SharedObjectModule(handle));
}

// dlopen needs a file: write the image to a private temporary one, open it,
// and remove the name at once (the mapping stays valid).
Expected<std::unique_ptr<LoadedModule>> openSharedImage(std::span<const std::byte> bytes) {
  std::error_code ignored;
  std::filesystem::path directory = std::filesystem::temp_directory_path(ignored);
  if (directory.empty()) directory = "/tmp";
  std::string name = (directory / "tcpu-module-XXXXXX").string();
  const int fd = mkstemp(name.data());
  if (fd < 0)
    return Status(TCPU_ERROR_OPERATING_SYSTEM, concat("cannot create a temporary file in ",
                                                      directory, ": ", std::strerror(errno)));
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      ::unlink(name.c_str());
      return Status(TCPU_ERROR_OPERATING_SYSTEM,
                    concat("cannot write temporary file ", name, ": ", std::strerror(error)));
    }
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);
  auto module = openShared(name);
  ::unlink(name.c_str());
  return module;
}

bool hasMagic(std::span<const std::byte> bytes, std::initializer_list<uint8_t> magic) {
  if (bytes.size() < magic.size()) return false;
  std::size_t i = 0;
  for (uint8_t expected : magic)
    if (static_cast<uint8_t>(bytes[i++]) != expected) return false;
  return true;
}

} // namespace

bool SharedObjectLoader::accepts(const ModuleSource& source) const {
  const auto& b = source.bytes;
  return hasMagic(b, {0x7f, 'E', 'L', 'F'}) ||    // ELF
         hasMagic(b, {0xcf, 0xfa, 0xed, 0xfe}) || // Mach-O 64-bit, little endian
         hasMagic(b, {0xca, 0xfe, 0xba, 0xbe});   // Mach-O universal
}

Expected<std::unique_ptr<LoadedModule>> SharedObjectLoader::load(const ModuleSource& source) const {
  if (!source.options.empty())
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("a precompiled shared object takes no JIT options (got ",
                         source.options.size(), ")"));
  // Always from a private copy of the bytes already read: dlopen of the same
  // path twice would return the first (possibly since replaced) library, and
  // modules would share their static data; CUDA's modules are independent.
  return openSharedImage(source.bytes);
}

} // namespace tcpu::detail
