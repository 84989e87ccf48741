#include "clang/precompiled_header.hpp"

#include <chrono>
#include <regex>
#include <system_error>

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <llvm/Bitstream/BitstreamReader.h>
#include <llvm/Support/MemoryBuffer.h>

#include "cache/cache_limit.hpp"
#include "cache/cache_lock.hpp"
#include "support/debug_log.hpp"
#include "support/kill_point.hpp"
#include "support/llvm_guard.hpp"
#include "support/phase_timer.hpp"
#include "clang/clang_invocation.hpp"
#include "clang/kernel_headers.hpp"

namespace tcpu::codegen {
namespace {

// tl.h in the kernel include directories, or nullopt.
std::optional<std::filesystem::path> findTl() {
  for (const std::string& directory : kernelIncludeDirectories()) {
    const std::filesystem::path tl = std::filesystem::path(directory) / "tcpu" / "tl.h";
    std::error_code error;
    if (std::filesystem::is_regular_file(tl, error)) return tl;
  }
  return std::nullopt;
}

// Compiles tl.h into `output`, with the invocation of a kernel compile (so that the language
// options match the compiles that load it).
Status build(const std::filesystem::path& tl, const CompileOptions& options,
             const std::filesystem::path& output) {
  CapturedDiagnostics diagnostics;
  Expected<std::shared_ptr<clang::CompilerInvocation>> created =
      createKernelInvocation(tl.string(), options, diagnostics);
  if (!created)
    return Status(TCPU_ERROR_UNKNOWN, concat("cannot set up clang: ", diagnostics.text()));
  std::shared_ptr<clang::CompilerInvocation> invocation = created.take();
  clang::FrontendOptions& frontend = invocation->getFrontendOpts();
  frontend.Inputs = {
      clang::FrontendInputFile(tl.string(), clang::InputKind(clang::Language::CXX).getHeader())};
  frontend.OutputFile = output.string();
  // Straight into `output`, the cache's own temporary, which the caller removes when the build
  // fails (a full disk) and `tcpu cache clear` knows: clang's temporary beside it would be left
  // behind by a failed or killed build.
  frontend.UseTemporary = false;
  frontend.DisableFree = false;
  // The templates tl.h itself uses are instantiated into the header once (clang's
  // -fpch-instantiate-templates), not in every kernel's compile: 20-30 ms of an elementwise
  // kernel's 60-80 ms in clang. The kernels' IR is the same.
  invocation->getLangOpts().PCHInstantiateTemplates = true;
  clang::CompilerInstance compiler;
  compiler.setInvocation(std::move(invocation));
  compiler.setDiagnostics(&diagnostics.engine());
  clang::GeneratePCHAction action;
  if (!compiler.ExecuteAction(action))
    return Status(TCPU_ERROR_UNKNOWN,
                  concat("clang cannot precompile ", tl.string(), ":\n", diagnostics.text()));
  return {};
}

// How long a build waits for another's: a header takes 0.3 s to build on a quiet machine, seconds
// on a busy one.
constexpr std::chrono::seconds kBuildWait{60};
constexpr const char* kPrecompiledHeaderLockName = "pch.lock";

// Whether the header at `path` is there, readable and whole (marked used then).
bool usableHeader(const ObjectCache& cache, const std::filesystem::path& path) {
  std::error_code error;
  if (!cache.readable() || !std::filesystem::is_regular_file(path, error)) return false;
  const std::optional<std::string> damage = precompiledHeaderDamage(path);
  if (damage) {
    debugLog(concat("pch: ", path.string(), " is damaged (", *damage, "): rebuilding it"));
    return false;
  }
  markCacheFileUsed(path);
  return true;
}

} // namespace

std::optional<std::string> precompiledHeaderDamage(const std::filesystem::path& path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path.string(), /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file) return concat("cannot be read: ", file.getError().message());
  const llvm::StringRef bytes = (*file)->getBuffer();
  if (!bytes.starts_with("CPCH")) return std::string("not a clang precompiled header (no magic)");
  llvm::BitstreamCursor cursor(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  if (llvm::Error skipped = cursor.JumpToBit(32)) {
    llvm::consumeError(std::move(skipped));
    return std::string("truncated");
  }
  int blocks = 0;
  while (!cursor.AtEndOfStream()) {
    llvm::Expected<unsigned> code = cursor.ReadCode();
    if (!code || *code != llvm::bitc::ENTER_SUBBLOCK) {
      if (!code) llvm::consumeError(code.takeError());
      return concat("no block where top-level block ", blocks + 1, " should begin");
    }
    llvm::Expected<unsigned> id = cursor.ReadSubBlockID();
    if (!id) {
      llvm::consumeError(id.takeError());
      return std::string("truncated");
    }
    if (llvm::Error error = cursor.SkipBlock()) {
      llvm::consumeError(std::move(error));
      return concat("top-level block ", blocks + 1, " runs past the end of the file (truncated)");
    }
    ++blocks;
  }
  if (blocks == 0) return std::string("no blocks");
  return std::nullopt;
}

bool startsWithTlInclude(std::string_view source) {
  size_t at = 0;
  while (at < source.size()) {
    const size_t next = source.find_first_not_of(" \t\r\n\f\v", at);
    if (next == std::string_view::npos) return false;
    at = next;
    if (source.substr(at).starts_with("//")) {
      at = source.find('\n', at);
      if (at == std::string_view::npos) return false;
    } else if (source.substr(at).starts_with("/*")) {
      at = source.find("*/", at + 2);
      if (at == std::string_view::npos) return false;
      at += 2;
    } else {
      break;
    }
  }
  static const std::regex include(R"(^#[ \t]*include[ \t]*("tcpu/tl\.h"|<tcpu/tl\.h>))");
  const std::string_view line = source.substr(at, source.find('\n', at) - at);
  return std::regex_search(line.begin(), line.end(), include);
}

std::optional<std::filesystem::path> precompiledTl(const ObjectCache& cache,
                                                   const CompileOptions& options, bool rebuild) {
  const std::optional<std::filesystem::path> tl = findTl();
  if (!tl) return std::nullopt;
  Expected<std::string> signature = sourceCompileSignature(tl->string(), options);
  if (!signature) {
    debugLog(concat("pch: ", signature.status().message()));
    return std::nullopt;
  }
  const std::string key =
      CacheKeyBuilder("tcpu-pch-v2").field(*signature).field(kernelHeaderDigest()).finish();
  const std::filesystem::path path = cache.directory() / (key + ".tcpupch");
  if (!rebuild && usableHeader(cache, path)) return path;
  if (!cache.prepareDirectory()) return std::nullopt;
  // One build at a time: processes started together (pytest-xdist's workers, parallel compiles)
  // wait for the first one's header instead of each building it. A holder past the wait is
  // stopped or stuck; this one then builds its own (the publish is atomic either way).
  CacheLock lock(cache.directory() / kPrecompiledHeaderLockName);
  if (lock.acquire(kBuildWait)) {
    if (!rebuild && usableHeader(cache, path)) {
      debugLog(concat("pch: ", path.string(), " was built meanwhile (another process or thread)"));
      return path;
    }
  } else {
    debugLog(
        concat("pch: another process holds ", kPrecompiledHeaderLockName, ": building without it"));
  }
  const std::filesystem::path temporary = cache.temporaryPath(key);
  const PhaseTimer timer;
  Status built =
      runGuarded("precompiling tcpu/tl.h", [&] { return build(*tl, options, temporary); });
  if (!built.ok()) {
    debugLog(concat("pch: ", built.message()));
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return std::nullopt;
  }
  killPointForTests("pch");
  if (!cache.publish(temporary, path)) return std::nullopt;
  debugLog(concat("pch: built ", path.string(), " in ", timer.elapsed()));
  return path;
}

} // namespace tcpu::codegen
