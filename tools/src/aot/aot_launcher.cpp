#include "aot/aot_launcher.hpp"

#include <cstdint>
#include <set>
#include <sstream>

namespace tcpu::cli {
namespace {

using codegen::SignatureEntry;

bool isInteger(tcpuDataType type) {
  switch (type) {
  case TCPU_TYPE_I1:
  case TCPU_TYPE_I8:
  case TCPU_TYPE_I16:
  case TCPU_TYPE_I32:
  case TCPU_TYPE_I64:
  case TCPU_TYPE_U8:
  case TCPU_TYPE_U16:
  case TCPU_TYPE_U32:
  case TCPU_TYPE_U64:
    return true;
  default:
    return false;
  }
}

bool isIntegerValued(const AotArgument& argument) {
  const SignatureEntry& entry = *argument.entry;
  if (entry.kind == SignatureEntry::Kind::Pointer) return false;
  if (entry.kind == SignatureEntry::Kind::Constexpr) return entry.type != TCPU_TYPE_FP64;
  return isInteger(entry.type);
}

// The value a Constexpr or EqualOne argument has, as a C literal of type int64_t / double.
std::string constantLiteral(const AotArgument& argument) {
  const SignatureEntry& entry = *argument.entry;
  if (argument.role == AotArgument::Role::EqualOne) return "1";
  if (entry.type == TCPU_TYPE_FP64) return entry.text;
  return concat("INT64_C(", entry.intValue, ")");
}

// The C type of the value the kernel reads for a parameter (its IR type).
std::string kernelValueType(const tcpuParamDesc& param) {
  return param.type == TCPU_TYPE_PTR ? "void*"
                                     : cTypeOfValue(static_cast<tcpuDataType>(param.type));
}

// The expression converting launcher parameter `name` to what the kernel reads. fp16 and bf16
// scalars arrive as bits; a kernel that takes them as float (triton-cpu's convention) gets the
// exact float value.
std::string kernelValue(const AotArgument& argument, const tcpuParamDesc& param) {
  const tcpuDataType declared = argument.entry->type;
  if (param.type == TCPU_TYPE_FP32 && declared == TCPU_TYPE_FP16)
    return concat("(float)__builtin_bit_cast(_Float16, ", argument.name, ")");
  if (param.type == TCPU_TYPE_FP32 && declared == TCPU_TYPE_BF16)
    return concat("__builtin_bit_cast(float, (uint32_t)", argument.name, " << 16)");
  return concat("(", kernelValueType(param), ")", argument.name);
}

std::string parameterList(const std::vector<AotArgument>& arguments, bool full) {
  std::string list;
  for (const AotArgument& argument : arguments) {
    if (argument.role == AotArgument::Role::Constexpr) continue;
    if (!full && argument.role == AotArgument::Role::EqualOne) continue;
    list += concat(list.empty() ? "" : ", ", cTypeOf(*argument.entry), " ", argument.name);
  }
  return list;
}

std::string cString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Keeps user text from ending a /* comment */.
std::string commentSafe(std::string text) {
  for (std::size_t at = text.find("*/"); at != std::string::npos; at = text.find("*/", at))
    text.replace(at, 2, "* /");
  return text;
}

} // namespace

std::vector<AotArgument> aotArguments(const codegen::Signature& signature,
                                      const codegen::KernelInfo& kernel) {
  std::vector<AotArgument> arguments;
  std::set<std::string> used;
  int runtimeIndex = 0;
  // A kernel declares either every argument of the signature or only its run-time ones
  // (constexprs compiled in, as the Python front end's kernels do): name them accordingly.
  const bool declaresAll = kernel.declaredNames.size() == signature.entries.size();
  for (std::size_t i = 0; i < signature.entries.size(); ++i) {
    AotArgument argument;
    argument.entry = &signature.entries[i];
    const bool runtime = argument.entry->passedAtLaunch();
    const std::size_t declaredIndex =
        declaresAll ? i : (runtime ? static_cast<std::size_t>(runtimeIndex) : SIZE_MAX);
    const std::string declared =
        declaredIndex < kernel.declaredNames.size() ? kernel.declaredNames[declaredIndex] : "";
    // Names become C identifiers in the launcher; the launcher's own start with tcpu_aot_.
    const bool usable =
        isCIdentifier(declared) && !declared.starts_with("tcpu_aot_") && !used.contains(declared);
    argument.name = usable ? declared : concat("arg", i);
    used.insert(argument.name);
    if (argument.entry->kind == SignatureEntry::Kind::Constexpr)
      argument.role = AotArgument::Role::Constexpr;
    else if (!runtime)
      argument.role = AotArgument::Role::EqualOne;
    else
      argument.runtimeIndex = runtimeIndex++;
    arguments.push_back(std::move(argument));
  }
  return arguments;
}

std::vector<std::string> gridNames(const std::vector<AotArgument>& arguments) {
  std::vector<std::string> names;
  for (const AotArgument& argument : arguments)
    if (isIntegerValued(argument)) names.push_back(argument.name);
  return names;
}

std::vector<std::string> launcherExports(const AotNames& names) {
  return {names.function, "load_" + names.function, "unload_" + names.function};
}

std::string launcherSource(const AotSpecialization& specialization) {
  const codegen::KernelInfo& kernel = *specialization.kernel;
  const std::vector<AotArgument>& arguments = specialization.arguments;
  const std::string& function = specialization.names.function;
  ClassicStream out;
  out << "// The launcher of " << function << ", generated by tcpu compile.\n"
      << "#include <stdint.h>\n#include \"tcpu/tcpu.h\"\n\n"
      << "extern \"C\" void " << kernel.entrySymbol
      << "(void* const*, uint64_t, uint64_t, const tcpuLaunchFrame*);\n\n"
      << "namespace {\n\n";
  // The descriptor the runtime launches, as a shared object would export it.
  const std::size_t count = kernel.params.size();
  if (count > 0) {
    out << "const tcpuParamDesc tcpu_aot_params[] = {\n";
    for (std::size_t k = 0; k < count; ++k) {
      const tcpuParamDesc& param = kernel.params[k];
      std::string name = "nullptr";
      for (const AotArgument& argument : arguments)
        if (argument.runtimeIndex == static_cast<int>(k)) name = cString(argument.name);
      out << "    {" << param.type << "u, " << param.pointee << "u, " << param.size << "u, "
          << param.align << "u, " << name << "},\n";
    }
    out << "};\n";
  }
  out << "const tcpuKernelDesc tcpu_aot_kernel = {TCPU_KERNEL_ABI_VERSION, " << count << "u, "
      << cString(kernel.name) << ", &" << kernel.entrySymbol << ", "
      << (count > 0 ? "tcpu_aot_params" : "nullptr") << ", " << kernel.flags << "u"
      << "};\n\n"
      // load_/unload_ may race with each other and with first launches: a spin lock guards the
      // module (held only around two runtime calls); launches read the function atomically.
      << "int tcpu_aot_lock = 0;\n"
      << "tcpuModule tcpu_aot_module = nullptr;\n"
      << "tcpuFunction tcpu_aot_function = nullptr;\n\n"
      << "struct tcpu_aot_guard {\n"
      << "  tcpu_aot_guard() { while (__atomic_exchange_n(&tcpu_aot_lock, 1, __ATOMIC_ACQUIRE)) {} "
         "}\n"
      << "  ~tcpu_aot_guard() { __atomic_store_n(&tcpu_aot_lock, 0, __ATOMIC_RELEASE); }\n"
      << "};\n\n";
  // The grid, in 64-bit arithmetic over the integer arguments.
  std::string gridParameters, gridArguments;
  for (const AotArgument& argument : arguments) {
    if (!isIntegerValued(argument)) continue;
    gridParameters += concat(gridParameters.empty() ? "" : ", ", "int64_t ", argument.name);
    gridArguments +=
        concat(gridArguments.empty() ? "" : ", ", argument.role == AotArgument::Role::Runtime
                                                      ? concat("(int64_t)", argument.name)
                                                      : constantLiteral(argument));
  }
  // The functions a grid may call (tools/src/run/grid_expression.cpp), as evaluateGrid computes
  // them; a cdiv by a non-positive divisor marks the grid bad (the launch then refuses it,
  // whatever the rest of the expression makes of the value).
  out << "thread_local bool tcpu_aot_grid_bad = false;\n"
      << "[[maybe_unused]] int64_t cdiv(int64_t x, int64_t y) {\n"
      << "  if (y <= 0) { tcpu_aot_grid_bad = true; return 0; }\n"
      << "  return x / y + (x % y != 0 && x > 0 ? 1 : 0);\n}\n"
      << "[[maybe_unused]] int64_t min(int64_t a, int64_t b) { return a < b ? a : b; }\n"
      << "[[maybe_unused]] int64_t max(int64_t a, int64_t b) { return a > b ? a : b; }\n";
  out << "void tcpu_aot_grid(int64_t* tcpu_aot_out"
      << (gridParameters.empty() ? "" : ", " + gridParameters) << ") {\n"
      << "  tcpu_aot_grid_bad = false;\n";
  for (int axis = 0; axis < 3; ++axis)
    out << "  tcpu_aot_out[" << axis << "] = (int64_t)(" << specialization.grid.text[axis]
        << ");\n";
  out << "}\n\n} // namespace\n\n"
      << "extern \"C\" {\n\n"
      << "tcpuResult load_" << function << "(void) {\n"
      << "  tcpu_aot_guard guard;\n"
      << "  if (tcpu_aot_module) return TCPU_SUCCESS;\n"
      << "  const tcpuKernelDesc* kernels[] = {&tcpu_aot_kernel};\n"
      << "  tcpuModule module = nullptr;\n"
      << "  tcpuResult result = tcpuModuleLoadKernels(&module, kernels, 1);\n"
      << "  if (result != TCPU_SUCCESS) return result;\n"
      << "  tcpuFunction function = nullptr;\n"
      << "  result = tcpuModuleGetFunction(&function, module, " << cString(kernel.name) << ");\n"
      << "  if (result != TCPU_SUCCESS) {\n"
      << "    tcpuModuleUnload(module);\n"
      << "    return result;\n"
      << "  }\n"
      << "  tcpu_aot_module = module;\n"
      << "  __atomic_store_n(&tcpu_aot_function, function, __ATOMIC_RELEASE);\n"
      << "  return TCPU_SUCCESS;\n"
      << "}\n\n"
      << "tcpuResult unload_" << function << "(void) {\n"
      << "  tcpu_aot_guard guard;\n"
      << "  if (!tcpu_aot_module) return TCPU_SUCCESS;\n"
      << "  __atomic_store_n(&tcpu_aot_function, nullptr, __ATOMIC_RELEASE);\n"
      << "  const tcpuResult result = tcpuModuleUnload(tcpu_aot_module);\n"
      << "  tcpu_aot_module = nullptr;\n"
      << "  return result;\n"
      << "}\n\n";
  const std::string parameters = parameterList(arguments, /*full=*/false);
  out << "tcpuResult " << function << "(tcpuStream stream"
      << (parameters.empty() ? "" : ", " + parameters) << ") {\n"
      << "  tcpuFunction function = __atomic_load_n(&tcpu_aot_function, __ATOMIC_ACQUIRE);\n"
      << "  if (!function) {\n"
      << "    const tcpuResult loaded = load_" << function << "();\n"
      << "    if (loaded != TCPU_SUCCESS) return loaded;\n"
      << "    function = __atomic_load_n(&tcpu_aot_function, __ATOMIC_ACQUIRE);\n"
      << "  }\n"
      << "  int64_t grid[3];\n"
      << "  tcpu_aot_grid(grid" << (gridArguments.empty() ? "" : ", " + gridArguments) << ");\n"
      << "  if (tcpu_aot_grid_bad) return TCPU_ERROR_INVALID_VALUE;\n"
      << "  for (int axis = 0; axis < 3; ++axis)\n"
      << "    if (grid[axis] < 0 || grid[axis] > (int64_t)UINT32_MAX) return "
         "TCPU_ERROR_INVALID_VALUE;\n";
  std::string pointers;
  for (const AotArgument& argument : arguments) {
    if (argument.role != AotArgument::Role::Runtime) continue;
    const tcpuParamDesc& param = kernel.params[static_cast<std::size_t>(argument.runtimeIndex)];
    out << "  " << kernelValueType(param) << " tcpu_aot_value" << argument.runtimeIndex << " = "
        << kernelValue(argument, param) << ";\n";
    pointers += concat(pointers.empty() ? "" : ", ", "&tcpu_aot_value", argument.runtimeIndex);
  }
  if (pointers.empty())
    out << "  void** params = nullptr;\n";
  else
    out << "  void* params[] = {" << pointers << "};\n";
  if (specialization.options.numThreads > 0)
    out << "  void* extra[] = {TCPU_LAUNCH_PARAM_NUM_THREADS, (void*)(uintptr_t)"
        << specialization.options.numThreads << ", TCPU_LAUNCH_PARAM_END};\n";
  else
    out << "  void** extra = nullptr;\n";
  out << "  return tcpuLaunchKernel(function, (unsigned)grid[0], (unsigned)grid[1], "
         "(unsigned)grid[2], 1, 1, 1, 0, stream, params, extra);\n"
      << "}\n\n} // extern \"C\"\n";
  return out.str();
}

std::string headerText(const AotSpecialization& specialization) {
  const AotNames& names = specialization.names;
  const std::string& function = names.function;
  const std::string parameters = parameterList(specialization.arguments, /*full=*/false);
  std::string hints;
  for (const AotArgument& argument : specialization.arguments)
    if (argument.role != AotArgument::Role::Constexpr)
      hints += concat(hints.empty() ? "" : ",", argument.entry->hint);
  ClassicStream out;
  out << "/* Generated by tcpu compile: " << commentSafe(specialization.origin) << ".\n"
      << " * " << function << " launches the kernel on a tcpu stream (NULL: the null stream);\n"
      << " * load_/unload_ create and drop its module (the first launch loads it). */\n"
      << "#ifndef TCPU_AOT_" << function << "_H\n"
      << "#define TCPU_AOT_" << function << "_H\n\n"
      << "#ifndef __cplusplus\n#include <stdbool.h>\n#endif\n"
      << "#include <stdint.h>\n#include <tcpu/tcpu.h>\n\n"
      << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
      << "// tcpu-linker: " << function << ":" << parameterList(specialization.arguments, true)
      << ":" << names.algoInfo << ":" << hints << "\n"
      << "tcpuResult load_" << function << "(void);\n"
      << "tcpuResult unload_" << function << "(void);\n"
      << "tcpuResult " << function << "(tcpuStream stream"
      << (parameters.empty() ? "" : ", " + parameters) << ");\n\n"
      << "#ifdef __cplusplus\n}\n#endif\n\n"
      << "#endif\n";
  return out.str();
}

} // namespace tcpu::cli
