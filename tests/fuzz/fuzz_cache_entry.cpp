// Cache entries (codegen/src/jit/object_cache.cpp, deserializeEntry): any bytes give a module or
// nullopt. The bytes are read twice: as they are (the header checks), and with the header's
// size and checksum recomputed over the rest (so that mutations reach the body's reader,
// which a checksum would otherwise shield). An entry read is written back byte for byte.
#include <cstring>
#include <string>

#include <llvm/Support/xxhash.h>

#include "cache/object_cache.hpp"
#include "fuzz_support.hpp"

namespace tcpu::fuzz {
namespace {

// The layout serializeEntry writes: 8 bytes of magic, the body's size and its XXH3-64, the body.
constexpr size_t kMagicSize = 8;
constexpr size_t kHeaderSize = kMagicSize + 16;

bool sameModule(const codegen::CompiledModule& a, const codegen::CompiledModule& b) {
  if (a.object != b.object || a.kernels.size() != b.kernels.size()) return false;
  for (size_t k = 0; k < a.kernels.size(); ++k) {
    const codegen::KernelInfo& x = a.kernels[k];
    const codegen::KernelInfo& y = b.kernels[k];
    if (x.name != y.name || x.entrySymbol != y.entrySymbol || x.paramNames != y.paramNames ||
        x.params.size() != y.params.size())
      return false;
    for (size_t p = 0; p < x.params.size(); ++p)
      if (x.params[p].type != y.params[p].type || x.params[p].pointee != y.params[p].pointee ||
          x.params[p].size != y.params[p].size || x.params[p].align != y.params[p].align)
        return false;
  }
  return true;
}

void check(std::string_view bytes) {
  std::optional<codegen::CompiledModule> module = codegen::deserializeEntry(bytes);
  if (!module) return;
  TCPU_FUZZ_CHECK(!module->kernels.empty() && !module->object.empty(), "an empty entry accepted");
  for (const codegen::KernelInfo& kernel : module->kernels)
    TCPU_FUZZ_CHECK(kernel.params.size() == kernel.paramNames.size(), kernel.name);
  const std::string written = codegen::serializeEntry(*module);
  TCPU_FUZZ_CHECK(written == bytes,
                  concat("an entry of ", bytes.size(), " bytes is written back as ", written.size(),
                         " different bytes"));
  std::optional<codegen::CompiledModule> again = codegen::deserializeEntry(written);
  TCPU_FUZZ_CHECK(again && sameModule(*again, *module), "the entry does not read back the same");
}

} // namespace

int fuzzCacheEntry(const uint8_t* data, size_t size) {
  const std::string_view bytes = asText(data, size);
  check(bytes);
  if (size < kHeaderSize) return 0;
  std::string fixed(bytes);
  const std::string_view body = bytes.substr(kHeaderSize);
  const uint64_t bodySize = body.size();
  const uint64_t sum = llvm::xxh3_64bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(body.data()), body.size()));
  std::memcpy(fixed.data() + kMagicSize, &bodySize, sizeof bodySize);
  std::memcpy(fixed.data() + kMagicSize + 8, &sum, sizeof sum);
  if (fixed != bytes) check(fixed);
  return 0;
}

} // namespace tcpu::fuzz

TCPU_FUZZ_ENTRY(fuzzCacheEntry)
