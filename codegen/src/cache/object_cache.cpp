#include "cache/object_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include <llvm/Config/llvm-config.h>
#include <llvm/Support/xxhash.h>

#include "cache/cache_limit.hpp"
#include "cache/temporary_files.hpp"
#include "codegen_build_id.h"
#include "support/debug_log.hpp"
#include "support/kill_point.hpp"
#include "tcpu/environment.hpp"

namespace tcpu::codegen {
namespace {

// Version 2 added the inputs of modules compiled from source.
constexpr char kMagic[8] = {'T', 'C', 'P', 'U', 'O', 'B', 'J', '3'};

class Writer {
public:
  void u32(uint32_t value) { raw(&value, sizeof value); }
  void u64(uint64_t value) { raw(&value, sizeof value); }
  void i64(int64_t value) { raw(&value, sizeof value); }
  void str(const std::string& text) {
    u64(text.size());
    raw(text.data(), text.size());
  }
  void raw(const void* data, size_t size) { bytes_.append(static_cast<const char*>(data), size); }
  std::string take() { return std::move(bytes_); }

private:
  std::string bytes_;
};

// Reads with bounds checks: any overrun marks the whole entry bad.
class Reader {
public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  bool ok() const { return ok_; }
  bool atEnd() const { return offset_ == bytes_.size(); }
  uint32_t u32() { return fixed<uint32_t>(); }
  uint64_t u64() { return fixed<uint64_t>(); }
  int64_t i64() { return fixed<int64_t>(); }
  std::string str() {
    const uint64_t size = u64();
    if (!ok_ || size > bytes_.size() - offset_) return fail<std::string>();
    std::string text(bytes_.substr(offset_, size));
    offset_ += size;
    return text;
  }

private:
  template <class T>
  T fixed() {
    if (!ok_ || sizeof(T) > bytes_.size() - offset_) return fail<T>();
    T value;
    std::memcpy(&value, bytes_.data() + offset_, sizeof value);
    offset_ += sizeof value;
    return value;
  }
  template <class T>
  T fail() {
    ok_ = false;
    return T{};
  }
  std::string_view bytes_;
  size_t offset_ = 0;
  bool ok_ = true;
};

// Cache entries are code this process will run: only a directory that this
// user owns and nobody else can write to is trusted.
bool trustedDirectory(const std::filesystem::path& directory) {
  struct stat info{};
  if (::stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) return false;
  if (info.st_uid != ::geteuid() || (info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    debugLog(concat("cache directory ", directory.string(),
                    " is not owned by this user or is writable by others: cache not used"));
    return false;
  }
  return true;
}

uint64_t checksum(std::string_view payload) {
  return llvm::xxh3_64bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(payload.data()), payload.size()));
}

} // namespace

Expected<std::optional<ObjectCache>> objectCacheFromEnvironment() {
  Expected<std::optional<std::filesystem::path>> directory = cacheDirectoryFromEnvironment();
  if (!directory) return directory.status();
  Expected<uint64_t> maxBytes = cacheSizeLimitFromEnvironment();
  if (!maxBytes) return maxBytes.status();
  if (!*directory) return std::optional<ObjectCache>();
  return std::optional<ObjectCache>(ObjectCache(**directory, *maxBytes));
}

CacheKeyBuilder::CacheKeyBuilder(std::string_view kind) {
  field(kind);
  field(concat(TCPU_VERSION_MAJOR, ".", TCPU_VERSION_MINOR, ".", TCPU_VERSION_PATCH));
  field(TCPU_CODEGEN_BUILD_ID);
  field(LLVM_VERSION_STRING);
}

CacheKeyBuilder::CacheKeyBuilder(std::string_view kind, const CompileOptions& options,
                                 const TargetDescription& target)
    : CacheKeyBuilder(kind) {
  field(target.triple);
  field(target.cpu);
  field(target.features);
  field(options.fingerprint());
}

FieldDigest& FieldDigest::field(std::string_view text) {
  const uint64_t size = text.size(); // length-prefixed, so fields cannot run into each other
  hash_.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(&size), sizeof size));
  hash_.update(llvm::StringRef(text.data(), text.size()));
  return *this;
}

std::string FieldDigest::finish() {
  const std::array<uint8_t, 32> digest = hash_.final();
  static const char hex[] = "0123456789abcdef";
  std::string key;
  for (uint8_t byte : digest) {
    key += hex[byte >> 4];
    key += hex[byte & 15];
  }
  return key;
}

std::string cacheKey(std::span<const std::byte> ir, const CompileOptions& options,
                     const TargetDescription& target) {
  return CacheKeyBuilder("tcpu-object-cache-v2", options, target)
      .field(std::string_view(reinterpret_cast<const char*>(ir.data()), ir.size()))
      .finish();
}

std::string serializeEntry(const CompiledModule& module) {
  Writer payload;
  payload.u32(static_cast<uint32_t>(module.kernels.size()));
  for (const KernelInfo& kernel : module.kernels) {
    payload.str(kernel.name);
    payload.str(kernel.entrySymbol);
    payload.u32(kernel.flags);
    payload.u32(static_cast<uint32_t>(kernel.params.size()));
    for (size_t i = 0; i < kernel.params.size(); ++i) {
      const tcpuParamDesc& param = kernel.params[i];
      payload.u32(param.type);
      payload.u32(param.pointee);
      payload.u32(param.size);
      payload.u32(param.align);
      payload.str(kernel.paramNames[i]);
    }
  }
  payload.str(module.object);
  payload.u32(static_cast<uint32_t>(module.inputs.size()));
  for (const FileStamp& input : module.inputs) {
    payload.str(input.path);
    payload.u64(input.size);
    payload.i64(input.modifiedNs);
    payload.i64(input.changedNs);
  }
  const std::string body = payload.take();
  Writer entry;
  entry.raw(kMagic, sizeof kMagic);
  entry.u64(body.size());
  entry.u64(checksum(body));
  entry.raw(body.data(), body.size());
  return entry.take();
}

std::optional<CompiledModule> deserializeEntry(std::string_view bytes) {
  if (bytes.size() < sizeof kMagic + 16 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return std::nullopt;
  Reader header(bytes.substr(sizeof kMagic, 16));
  const uint64_t size = header.u64();
  const uint64_t sum = header.u64();
  const std::string_view body = bytes.substr(sizeof kMagic + 16);
  if (body.size() != size || checksum(body) != sum) return std::nullopt;
  Reader in(body);
  CompiledModule module;
  const uint32_t kernels = in.u32();
  for (uint32_t k = 0; in.ok() && k < kernels; ++k) {
    KernelInfo kernel;
    kernel.name = in.str();
    kernel.entrySymbol = in.str();
    kernel.flags = in.u32();
    const uint32_t params = in.u32();
    for (uint32_t p = 0; in.ok() && p < params; ++p) {
      tcpuParamDesc param{};
      param.type = in.u32();
      param.pointee = in.u32();
      param.size = in.u32();
      param.align = in.u32();
      kernel.params.push_back(param);
      kernel.paramNames.push_back(in.str());
    }
    module.kernels.push_back(std::move(kernel));
  }
  module.object = in.str();
  const uint32_t inputs = in.u32();
  for (uint32_t i = 0; in.ok() && i < inputs; ++i) {
    FileStamp input;
    input.path = in.str();
    input.size = in.u64();
    input.modifiedNs = in.i64();
    input.changedNs = in.i64();
    module.inputs.push_back(std::move(input));
  }
  if (!in.ok() || !in.atEnd() || module.kernels.empty() || module.object.empty())
    return std::nullopt;
  return module;
}

std::filesystem::path ObjectCache::entryPath(const std::string& key) const {
  return directory_ / (key + ".tcpuobj");
}

std::optional<CompiledModule> ObjectCache::load(const std::string& key) const {
  const std::filesystem::path path = entryPath(key);
  if (!readable()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    debugLog(concat("cache miss: ", path.string()));
    return std::nullopt;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::optional<CompiledModule> module = deserializeEntry(bytes);
  if (!module) {
    debugLog(concat("cache entry ", path.string(), " is truncated or corrupt (", bytes.size(),
                    " bytes): recompiling"));
    return std::nullopt;
  }
  debugLog(concat("cache hit: ", path.string()));
  markCacheFileUsed(path);
  return module;
}

bool ObjectCache::readable() const {
  return std::filesystem::exists(directory_) && trustedDirectory(directory_);
}

bool ObjectCache::prepareDirectory() const {
  std::error_code error;
  // Parents as the user's umask says; the cache directory itself private.
  std::filesystem::create_directories(directory_.parent_path(), error);
  if (::mkdir(directory_.c_str(), 0700) != 0 && errno != EEXIST) {
    debugLog(
        concat("cannot create cache directory ", directory_.string(), ": ", std::strerror(errno)));
    return false;
  }
  return trustedDirectory(directory_);
}

std::filesystem::path ObjectCache::temporaryPath(const std::string& key) const {
  return temporaryPathFor(directory_ / key);
}

bool ObjectCache::publish(const std::filesystem::path& temporary,
                          const std::filesystem::path& path) const {
  std::error_code error;
  // rename() replaces atomically: readers see the old file or the whole new one.
  std::filesystem::rename(temporary, path, error);
  if (error) {
    debugLog(concat("cannot publish cache file ", path.string(), ": ", error.message()));
    std::filesystem::remove(temporary, error);
    return false;
  }
  trimCache(directory_, maxBytes_);
  return true;
}

void ObjectCache::store(const std::string& key, const CompiledModule& module) const {
  if (!prepareDirectory()) return;
  const std::filesystem::path temporary = temporaryPath(key);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    const std::string bytes = serializeEntry(module);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      debugLog(concat("cannot write cache entry ", temporary.string()));
      std::error_code error;
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  killPointForTests("object");
  if (publish(temporary, entryPath(key)))
    debugLog(concat("cache store: ", entryPath(key).string()));
}

} // namespace tcpu::codegen
