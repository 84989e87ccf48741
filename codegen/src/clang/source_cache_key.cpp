#include "clang/source_cache_key.hpp"

#include <filesystem>
#include <system_error>

#include "cache/object_cache.hpp"
#include "clang/clang_invocation.hpp"
#include "clang/kernel_headers.hpp"
#include "clang/source_compiler.hpp"

namespace tcpu::codegen {

Expected<std::string> sourceCacheKey(std::string_view source, const std::string& name,
                                     const CompileOptions& options,
                                     const TargetDescription& target) {
  Expected<std::string> signature = sourceCompileSignature(name, options);
  if (!signature) return signature.status();
  // Quoted includes resolve next to the source: a relative name means another file elsewhere.
  std::error_code error;
  const std::filesystem::path place = std::filesystem::absolute(name, error);
  return CacheKeyBuilder("tcpu-source-cache-v1", options, target)
      .field(name)
      .field(error ? name : place.lexically_normal().string())
      .field(*signature)
      .field(kernelHeaderDigest())
      .field(source)
      .finish();
}

} // namespace tcpu::codegen
