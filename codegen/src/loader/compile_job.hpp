// The one way into codegen's compile pipeline for what loads kernels: the JIT's module loader
// (ir_module_loader) and the shared objects the Python front end keeps (shared_library_writer).
// Bytes (LLVM IR, or C++ kernel source) and a load's JIT options in, a compiled object out: C++
// through clang first, then IR through the pipeline, each looked up in the cache before it runs
// and stored there after. The callers differ in what they do with the object (link it into the
// JIT, or into a shared object), and in what they ask of the compile (texts, dumps, linked
// code).
#ifndef TCPU_CODEGEN_COMPILE_JOB_HPP
#define TCPU_CODEGEN_COMPILE_JOB_HPP

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cache/object_cache.hpp"
#include "pipeline/compile_module.hpp"
#include "tcpu/module_loader.hpp"

namespace tcpu::codegen {

struct CompileJob {
  std::span<const std::byte> bytes;
  std::string path;       // where the bytes came from; empty: memory
  std::string sourceName; // non-empty: `bytes` are C++ kernel source, compiled under this name
  CompileOptions options;
  TargetDescription target;
  std::optional<ObjectCache> cache; // none: every compile runs (and clang without tl.h's PCH)
  // The texts of the compile too (CompiledModule's): compiled afresh, cache reads skipped.
  bool withTexts = false;
  // Non-empty: the texts are written there too (TCPU_DUMP_DIR).
  std::filesystem::path dumpDirectory;
  // For an object a system linker links. The cache keys do not cover this code, so such a
  // compile takes only tl.h's precompiled header from the cache, and stores nothing.
  LinkedCodeFactory linkedCode;

  // For messages: the path, or "<memory image>".
  std::string name() const { return path.empty() ? "<memory image>" : path; }
};

// The job of a load of `bytes` (`path` empty: they came from memory) with `jitOptions`: its
// options, its target (a CPU named by the environment must run here: it applies to every load
// of the process, launched ones too), and the cache the environment names unless the options
// turn it off.
Expected<CompileJob> prepareCompileJob(std::span<const std::byte> bytes, const std::string& path,
                                       const std::vector<JitOption>& jitOptions);

Expected<CompiledModule> compileJob(const CompileJob& job);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_COMPILE_JOB_HPP
