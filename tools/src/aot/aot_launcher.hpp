// The C side of an ahead-of-time kernel: the typed launcher compiled into the object beside the
// kernel (it wraps the kernel's descriptor in a module, evaluates the grid, and launches), and
// the header that declares it with the `// tcpu-linker:` line `tcpu link` reads.
#ifndef TCPU_TOOLS_AOT_LAUNCHER_HPP
#define TCPU_TOOLS_AOT_LAUNCHER_HPP

#include <string>
#include <vector>

#include "aot/aot_names.hpp"
#include "ir/kernels.hpp"
#include "run/grid_expression.hpp"

namespace tcpu::cli {

// One signature entry as the launcher sees it.
struct AotArgument {
  enum class Role {
    Runtime,  // a launcher parameter, passed to the kernel
    EqualOne, // ":1": specialized to 1, only in the full signature
    Constexpr // a bare constexpr value, compiled into the kernel
  };
  const codegen::SignatureEntry* entry = nullptr;
  std::string name; // the kernel's parameter name, or arg<i> where it has none
  Role role = Role::Runtime;
  int runtimeIndex = -1; // index into KernelInfo::params for Runtime
};

std::vector<AotArgument> aotArguments(const codegen::Signature& signature,
                                      const codegen::KernelInfo& kernel);

// The names a grid expression may use: integer arguments and integer constexprs.
std::vector<std::string> gridNames(const std::vector<AotArgument>& arguments);

struct AotSpecialization {
  const codegen::KernelInfo* kernel = nullptr;
  std::vector<AotArgument> arguments;
  AotNames names;
  AotOptions options;
  GridExpressions grid;
  std::string origin; // for the header's comment: source, signature, grid
};

// C++ source (extern "C", no C++ runtime needed) of load_/unload_/the launcher.
std::string launcherSource(const AotSpecialization& specialization);
// The symbols the object exports.
std::vector<std::string> launcherExports(const AotNames& names);
std::string headerText(const AotSpecialization& specialization);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_AOT_LAUNCHER_HPP
