// How `tcpu compile` names a kernel specialization, following Triton's compile.py: a hash of the
// signature and the options, a suffix from the hints, and from them the launcher's function name
// and the output files.
#ifndef TCPU_TOOLS_AOT_NAMES_HPP
#define TCPU_TOOLS_AOT_NAMES_HPP

#include <optional>
#include <string>

#include "ir/signature.hpp"

namespace tcpu::cli {

struct AotOptions {
  int numThreads = 0;    // 0: the runtime's setting at launch time
  std::string targetCpu; // empty: the host
  // Triton's --num-warps/--num-stages: when either is given, the names take Triton's meta
  // ("warps<W>xstages<S>") and so match compile.py's for the same signature.
  std::optional<int> numWarps;
  std::optional<int> numStages;
};

struct AotNames {
  std::string hash;       // 8 hex digits
  std::string suffix;     // Triton's specialization suffix ("0d1d2d"); may be empty
  std::string function;   // <out name>_<hash>_<suffix>
  std::string algoInfo;   // constexpr values joined by 'x', '_', the options; only [A-Za-z0-9_]
  std::string headerPath; // <out path>.<hash>_<suffix>.h
  std::string objectPath; // <out path>.<hash>_<suffix>.o
};

// The options part of the hash and of algoInfo: Triton's "warps<W>xstages<S>" when numWarps or
// numStages is set (Triton's defaults 1 and 3 for the other), else
// "threads<T>xtarget<CPU or host>".
std::string aotMeta(const AotOptions& options);

// sig_hash = sha256(" ".join(entries + [meta]))[:8], entries as written (trimmed).
AotNames aotNames(const codegen::Signature& signature, const std::string& outName,
                  const std::string& outPath, const AotOptions& options);

// Whether `name` can be a C identifier (launcher names are built from it).
bool isCIdentifier(const std::string& name);

// The C type of a value of `type` as launchers pass it: "int32_t", "bool", "float", and
// "uint16_t" for fp16 and bf16 (their bits); "void" for types without one.
std::string cTypeOfValue(tcpuDataType type);

// The C type a launcher declares for an entry: "float*", "const uint16_t*", "int32_t", "bool"
// (fp16 and bf16 values travel as their uint16_t bits). Not for constexpr entries.
std::string cTypeOf(const codegen::SignatureEntry& entry);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_AOT_NAMES_HPP
