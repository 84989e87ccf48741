#include "memory/guarded_allocation.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tcpu::detail {
namespace {

size_t pageSize() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

size_t roundUp(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// Where the data sits in its mapping: `dataPages` bytes of whole pages, then the guard page;
// the data (padded to its alignment) fills the end of the data pages.
struct Layout {
  size_t padded;    // bytes rounded up to the alignment
  size_t dataPages; // padded rounded up to pages
  size_t mapping() const { return dataPages + pageSize(); }
  // The data's offset from the mapping's start.
  size_t offset() const { return dataPages - padded; }
};

Layout layoutOf(size_t bytes, size_t alignment) {
  const size_t padded = roundUp(bytes, alignment);
  return {padded, roundUp(padded, pageSize())};
}

} // namespace

Expected<uintptr_t> allocateGuarded(size_t bytes, size_t alignment) {
  if (bytes > SIZE_MAX - alignment - 2 * pageSize())
    return Status(TCPU_ERROR_OUT_OF_MEMORY, concat("bytesize=", bytes, " is too large"));
  const Layout layout = layoutOf(bytes, alignment);
  void* mapped =
      mmap(nullptr, layout.mapping(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED)
    return Status(TCPU_ERROR_OUT_OF_MEMORY, concat("cannot map bytesize=", bytes,
                                                   " bytes and a guard page: ", strerror(errno)));
  auto* base = static_cast<std::byte*>(mapped);
  if (mprotect(base + layout.dataPages, pageSize(), PROT_NONE) != 0) {
    const int error = errno;
    munmap(mapped, layout.mapping());
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot protect the guard page after bytesize=", bytes,
                         " bytes: ", strerror(error)));
  }
  return reinterpret_cast<uintptr_t>(base + layout.offset());
}

void releaseGuarded(uintptr_t address, size_t bytes, size_t alignment) {
  const Layout layout = layoutOf(bytes, alignment);
  munmap(reinterpret_cast<void*>(address - layout.offset()), layout.mapping());
}

} // namespace tcpu::detail
