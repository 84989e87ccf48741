// The persistent cache of compiled modules: one file per (IR, options,
// target, versions) key, written atomically, checked on read.
#ifndef TCPU_CODEGEN_OBJECT_CACHE_HPP
#define TCPU_CODEGEN_OBJECT_CACHE_HPP

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <llvm/Support/SHA256.h>

#include "pipeline/compile_module.hpp"
#include "tcpu/cache_directory.hpp" // cacheDirectoryFromEnvironment

namespace tcpu::codegen {

// SHA-256 (hex) of length-prefixed fields, so that fields cannot run into each other.
class FieldDigest {
public:
  FieldDigest& field(std::string_view text);
  std::string finish();

private:
  llvm::SHA256 hash_;
};

// Builds a cache key: the FieldDigest of its fields after the ones every key has (the kind of
// entry, tcpu's version, the codegen build, LLVM's version, the target, the options).
class CacheKeyBuilder : public FieldDigest {
public:
  CacheKeyBuilder(std::string_view kind, const CompileOptions& options,
                  const TargetDescription& target);
  // Without the target and options: for what depends on neither (precompiled headers).
  explicit CacheKeyBuilder(std::string_view kind);
};

// SHA-256 (hex) of everything that determines the compiled code of IR.
std::string cacheKey(std::span<const std::byte> ir, const CompileOptions& options,
                     const TargetDescription& target);

// The bytes of a cache entry for `module` (kernels, object, inputs), and back.
std::string serializeEntry(const CompiledModule& module);
// nullopt when the bytes are truncated, corrupt or of another format version.
std::optional<CompiledModule> deserializeEntry(std::string_view bytes);

class ObjectCache {
public:
  // `maxBytes`: the size tcpu's files in the directory are kept under (0: no limit;
  // cache_limit.hpp).
  explicit ObjectCache(std::filesystem::path directory, uint64_t maxBytes = 0)
      : directory_(std::move(directory)), maxBytes_(maxBytes) {}
  std::filesystem::path entryPath(const std::string& key) const;
  // A miss, or a damaged entry (reported at debug level), gives nullopt. A hit marks the entry
  // used.
  std::optional<CompiledModule> load(const std::string& key) const;
  // Atomic (temporary file + rename): concurrent writers of one key are safe. Then trims the
  // cache to its limit.
  // Failures only cost the next load a compile, so they are reported at debug level.
  void store(const std::string& key, const CompiledModule& module) const;

  // For other files kept in the cache (precompiled headers): whether the directory exists and
  // is trusted (owned by this user, writable by nobody else)...
  bool readable() const;
  // ...creating it (private) if need be;
  bool prepareDirectory() const;
  // a name for writing the file of `key` that no other writer uses (temporary_files.hpp's, which
  // `tcpu cache clear` removes when its writer is gone);
  std::filesystem::path temporaryPath(const std::string& key) const;
  // and renaming it into place atomically (false, the temporary removed, when that fails), then
  // trimming the cache to its limit.
  bool publish(const std::filesystem::path& temporary, const std::filesystem::path& path) const;
  const std::filesystem::path& directory() const { return directory_; }
  uint64_t maxBytes() const { return maxBytes_; }

private:
  std::filesystem::path directory_;
  uint64_t maxBytes_;
};

// The cache the environment names (cacheDirectoryFromEnvironment) with its size limit
// (TCPU_CACHE_MAX_SIZE); nullopt when there is none; an error for a bad value of either.
Expected<std::optional<ObjectCache>> objectCacheFromEnvironment();

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_OBJECT_CACHE_HPP
