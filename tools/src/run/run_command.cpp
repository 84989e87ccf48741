// tcpu run: load a kernel, make its arguments (.npy files, generators, numbers), launch it over
// a grid computed from its arguments, time the launches, and write every buffer back as .npy.
#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <sstream>
#include <variant>

#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "formats/data_types.hpp"
#include "formats/format_size.hpp"
#include "formats/output_files.hpp"
#include "run/grid_expression.hpp"
#include "run/interrupt_scope.hpp"
#include "run/launch_arguments.hpp"
#include "run/run_arguments.hpp"
#include "run/runtime_session.hpp"
#include "xcheck/xcheck_manifest.hpp"

namespace tcpu::cli {
namespace {

const CommandSpec kSpec{
    "run",
    "<module> --kernel NAME --grid \"gX,gY,gZ\" [--arg VALUE]... [options]",
    "load a kernel, launch it on generated or .npy inputs, write .npy outputs",
    "The module is LLVM IR (.ll, .bc), kernel source (.cpp) or a shared object of precompiled\n"
    "kernels. Give one --arg per kernel parameter, in order:\n"
    "  pointers  FILE.npy (its dtype must be the element type; bf16 as <u2 bits), or\n"
    "            zeros:N, arange:N, rand:N (floats in [0, 1), integers in [0, 100),\n"
    "            reproducible from --seed), full:N:VALUE, values:V,V,... (the elements), or\n"
    "            ptrs:NAME,... (for *i64/*u64: the device addresses of the named arrays --\n"
    "            other pointer parameters or --buffer ones; such a table is not written out)\n"
    "  scalars   a number of the parameter's type (range-checked; fp16/bf16 rounded to\n"
    "            nearest even)\n"
    "Element types come from the kernel; for IR whose pointers are untyped, pass --signature.\n"
    "The grid entries are C integer expressions over the integer scalar parameters, e.g.\n"
    "--grid \"(n+1023)/1024,1,1\" (parameters without names are arg0, arg1, ...).\n"
    "--buffer NAME:TYPE=GENERATOR (or NAME=FILE.npy) makes an array that is no parameter,\n"
    "for ptrs: tables to point at.\n"
    "After the launches every array is written to <out-dir>/<parameter or buffer>.npy; a\n"
    "failed launch writes nothing. With --repeat R > 1 the first launch is a warm-up and\n"
    "the kernel runs R times on the same buffers (so in-place kernels accumulate).\n"
    "With --backend cuda the module is PTX (`tcpu ptx ... --signature SIG` gives the types)\n"
    "and the same buffers, grid and outputs go through the runtime's CUDA backend.\n"
    "Every array ends at a guard page: a kernel that runs off the end of one dies at its\n"
    "first access past it, with a report naming the kernel; TCPU_CHECK=bounds names the\n"
    "access itself.\n"
    "Exit status: 1 when the kernel fails (a device_assert, a launch error).",
    {{"kernel", "NAME", "the kernel to launch", 'k', true},
     {"grid", "\"gX,gY,gZ\"", "grid size: three expressions over the scalar parameters", 0, true},
     {"signature", "SIG", "Triton signature to compile the kernel with, e.g. \"*fp32, i32\""},
     {"arg", "VALUE", "the next parameter's value (repeat once per parameter)", 0, false, true},
     {"buffer", "NAME:TYPE=GEN", "an array that is no parameter, for ptrs: tables", 0, false, true},
     {"out-dir", "DIR", "where the .npy outputs go (default: .)"},
     {"repeat", "R", "launch R times and report median and minimum time (default 1)"},
     {"seed", "S", "seed of rand:N buffers (default 0)"},
     {"num-threads", "T", "worker threads for the launches (default: the runtime's)"},
     {"backend", "B", "cpu (default), or cuda / cuda:N to run PTX from `tcpu ptx` on GPU N"},
     {"xcheck", "CASE", "also write <out-dir>/xcheck.txt, for `tcpu xcheck --compare`"},
     {"output", "PARAM[=RULE]",
      "with --xcheck: a pointer parameter that is an output, and its rule (exact, ulp:N, "
      "relnorm:X; default exact)",
      0, false, true},
     {"fp-contract", "on|off", "fuse a*b+c into FMA (TCPU_JIT_FP_CONTRACT; default on)"},
     {"fast-math", "", "allow fast-math rewrites (TCPU_JIT_FAST_MATH; default: exact)"},
     {"math-ulp", "1.0|3.5", "accuracy of the SLEEF math functions (TCPU_JIT_MATH_ULP)"}},
    1,
    1};

constexpr long long kMaxRepeat = 1'000'000;
constexpr long long kMaxThreads = 1 << 16; // the runtime's limit per launch

struct Options {
  unsigned int backend = TCPU_BACKEND_CPU;
  int ordinal = 0;
  int repeat = 1;
  uint64_t seed = 0;
  int numThreads = 0; // 0: the runtime's setting
  std::filesystem::path outDir;
};

// A failure with its exit code; the message goes after "tcpu run: ".
struct Failure {
  int exitCode;
  std::string message;
};

// Statuses of argument parsing: files that cannot be read or parsed are input errors, the
// rest (bad text, wrong dtype) usage errors.
int exitCodeForArgument(const Status& status) {
  switch (status.code()) {
  case TCPU_ERROR_FILE_NOT_FOUND:
  case TCPU_ERROR_OPERATING_SYSTEM:
  case TCPU_ERROR_INVALID_IMAGE:
    return kExitInputOutput;
  default:
    return kExitUsage;
  }
}

std::optional<Failure> parseOptions(const ParsedArguments& arguments, Options& options) {
  const auto integer = [&](const char* name, long long min, long long max,
                           long long fallback) -> Expected<long long> {
    const std::optional<std::string> text = arguments.get(name);
    if (!text) return fallback;
    return parseInteger(concat("--", name), *text, min, max);
  };
  Expected<long long> repeat = integer("repeat", 1, kMaxRepeat, 1);
  Expected<long long> seed = integer("seed", 0, std::numeric_limits<long long>::max(), 0);
  Expected<long long> threads = integer("num-threads", 1, kMaxThreads, 0);
  for (const Expected<long long>* value : {&repeat, &seed, &threads})
    if (!*value) return Failure{kExitUsage, value->status().message()};
  options.repeat = static_cast<int>(*repeat);
  options.seed = static_cast<uint64_t>(*seed);
  options.numThreads = static_cast<int>(*threads);
  options.outDir = arguments.getOr("out-dir", ".");
  const std::string backend = arguments.getOr("backend", "cpu");
  if (backend == "cuda" || backend.starts_with("cuda:")) {
    options.backend = TCPU_BACKEND_CUDA;
    if (backend.size() > 4) {
      Expected<long long> ordinal = parseInteger("--backend cuda:N", backend.substr(5), 0, 1 << 16);
      if (!ordinal) return Failure{kExitUsage, ordinal.status().message()};
      options.ordinal = static_cast<int>(*ordinal);
    }
  } else if (backend != "cpu") {
    return Failure{kExitUsage,
                   concat("--backend '", backend, "' is not cpu, cuda or cuda:N (a GPU ordinal)")};
  }
  return std::nullopt;
}

// --fp-contract, --fast-math and --math-ulp: the codegen options of a compiling load.
std::optional<Failure> parseMathOptions(const ParsedArguments& arguments, MathOptions& options) {
  if (std::optional<std::string> text = arguments.get("fp-contract")) {
    if (*text != "on" && *text != "off")
      return Failure{kExitUsage, concat("--fp-contract '", *text, "' is not on or off")};
    options.fpContract = *text == "on";
  }
  if (arguments.has("fast-math")) options.fastMath = true;
  if (std::optional<std::string> text = arguments.get("math-ulp")) {
    if (*text != "1.0" && *text != "3.5")
      return Failure{kExitUsage,
                     concat("--math-ulp '", *text,
                            "' is not 1.0 or 3.5 (the SLEEF variants' accuracy in ULP)")};
    options.mathUlp = *text == "1.0" ? 10 : 35; // TCPU_JIT_MATH_ULP counts tenths of an ULP
  }
  return std::nullopt;
}

// The context a run uses, destroyed (with what was made in it) when the run ends.
class ContextHandle {
public:
  explicit ContextHandle(tcpuContext context) : context_(context) {}
  ~ContextHandle() {
    if (context_) tcpuCtxDestroy(context_);
  }
  ContextHandle(const ContextHandle&) = delete;
  ContextHandle& operator=(const ContextHandle&) = delete;

private:
  tcpuContext context_;
};

std::string listParameters(const std::vector<KernelParameter>& parameters) {
  std::string list;
  for (const KernelParameter& parameter : parameters)
    list += concat(list.empty() ? "" : ", ", describeParameter(parameter));
  return list;
}

// The grid from the expressions over the integer scalar arguments.
Expected<std::array<uint32_t, 3>> computeGrid(const std::string& text,
                                              const std::vector<KernelParameter>& parameters,
                                              const std::vector<RunArgument>& values) {
  std::vector<std::string> names;
  std::map<std::string, int64_t> integers;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const auto* scalar = std::get_if<ScalarValue>(&values[i]);
    if (!scalar || isFloatType(scalar->type)) continue;
    names.push_back(parameters[i].name);
    if (scalar->integer) integers[parameters[i].name] = *scalar->integer;
  }
  Expected<GridExpressions> grid = parseGrid(text, names);
  if (!grid) return grid.status();
  std::array<uint32_t, 3> dimensions{};
  for (int axis = 0; axis < 3; ++axis) {
    Expected<uint32_t> size = evaluateGrid(*grid, axis, integers);
    if (!size) return size.status();
    dimensions[static_cast<std::size_t>(axis)] = *size;
  }
  return dimensions;
}

// Output file names: the parameter's name made safe for a file name, unique among them.
std::vector<std::string> outputNames(const std::vector<KernelParameter>& parameters) {
  std::vector<std::string> names(parameters.size());
  std::set<std::string> taken;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    std::string name = parameters[i].name;
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') c = '_';
    if (name.starts_with('.')) name = concat("_", name); // no hidden files, no ".."
    if (taken.contains(name)) name += concat("_", i);
    taken.insert(name);
    names[i] = name;
  }
  return names;
}

// Launches R times; returns each launch's milliseconds.
Expected<std::vector<double>> launchRepeatedly(tcpuFunction function, const std::string& kernel,
                                               const std::array<uint32_t, 3>& grid,
                                               LaunchArguments& arguments,
                                               std::size_t parameterCount, const Options& options) {
  std::vector<void*> extra = {TCPU_LAUNCH_PARAM_COUNT,
                              reinterpret_cast<void*>(static_cast<uintptr_t>(parameterCount))};
  if (options.numThreads > 0) {
    extra.push_back(TCPU_LAUNCH_PARAM_NUM_THREADS);
    extra.push_back(reinterpret_cast<void*>(static_cast<uintptr_t>(options.numThreads)));
  }
  const InterruptScope interrupt;
  if (interrupt.flag()) {
    extra.push_back(TCPU_LAUNCH_PARAM_CANCEL_FLAG);
    extra.push_back(interrupt.flag());
  }
  extra.push_back(TCPU_LAUNCH_PARAM_END);
  std::vector<double> milliseconds;
  for (int launch = 0; launch < options.repeat; ++launch) {
    const auto start = std::chrono::steady_clock::now();
    const tcpuResult result = tcpuLaunchKernel(function, grid[0], grid[1], grid[2], 1, 1, 1, 0,
                                               nullptr, arguments.params(), extra.data());
    const auto end = std::chrono::steady_clock::now();
    if (result != TCPU_SUCCESS || interrupt.interrupted()) {
      if (interrupt.interrupted())
        return Status(TCPU_ERROR_CANCELLED, concat("kernel '", kernel, "': interrupted on launch ",
                                                   launch + 1, " of ", options.repeat));
      const char* name = "";
      tcpuGetErrorName(result, &name);
      return Status(result, concat("kernel '", kernel, "' failed on launch ", launch + 1, " of ",
                                   options.repeat, ": ", name, ": ", tcpuGetLastErrorDetail()));
    }
    milliseconds.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  return milliseconds;
}

void reportTimes(std::ostream& out, const std::string& kernel, const std::array<uint32_t, 3>& grid,
                 std::vector<double> milliseconds, uint64_t bufferBytes) {
  out << kernel << ": grid (" << grid[0] << ", " << grid[1] << ", " << grid[2] << "), "
      << milliseconds.size() << (milliseconds.size() == 1 ? " launch" : " launches");
  if (milliseconds.size() > 1) {
    out << " (the first a warm-up)";
    milliseconds.erase(milliseconds.begin());
  }
  std::sort(milliseconds.begin(), milliseconds.end());
  const std::size_t middle = milliseconds.size() / 2;
  const double median = milliseconds.size() % 2
                            ? milliseconds[middle]
                            : (milliseconds[middle - 1] + milliseconds[middle]) / 2;
  ClassicStream line;
  line.setf(std::ios::fixed);
  line.precision(4);
  line << "\ntime: median " << median << " ms, min " << milliseconds.front() << " ms";
  if (bufferBytes > 0 && median > 0) {
    line.precision(2);
    line << "; buffers " << formatSize(bufferBytes)
         << " (each counted once): " << static_cast<double>(bufferBytes) / (median * 1e6)
         << " GB/s at the median";
  }
  out << line.str() << "\n";
}

// The run's arrays as they are written out: the pointer parameters' (not the address tables)
// under their output names, then the --buffer ones.
using NamedArrays = std::vector<std::pair<std::string, const NpyArray*>>;
NamedArrays runArrays(const std::vector<std::string>& names, const std::vector<RunArgument>& values,
                      const std::vector<NamedBuffer>& buffers) {
  NamedArrays arrays;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (const auto* array = std::get_if<NpyArray>(&values[i])) arrays.emplace_back(names[i], array);
  for (const NamedBuffer& buffer : buffers)
    arrays.emplace_back(buffer.name, &buffer.array);
  return arrays;
}

Status writeOutputs(const std::filesystem::path& directory, const NamedArrays& arrays,
                    std::ostream& out) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& [name, array] : arrays) {
    Expected<std::string> bytes = formatNpy(*array);
    if (!bytes) return bytes.status();
    files.emplace_back((directory / (name + ".npy")).string(), bytes.take());
  }
  if (files.empty()) return {};
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot create --out-dir '", directory.string(), "': ", error.message()));
  if (Status written = writeOutputFiles(files); !written.ok()) return written;
  out << "wrote";
  for (const auto& file : files)
    out << " " << file.first;
  out << "\n";
  return {};
}

// The --xcheck manifest: the --output arrays with their rules, every other array an input.
Expected<XcheckManifest> xcheckManifest(const ParsedArguments& arguments, const std::string& kernel,
                                        const std::vector<KernelParameter>& parameters,
                                        const NamedArrays& arrays, const Options& options) {
  XcheckManifest manifest;
  manifest.caseName = *arguments.get("xcheck");
  manifest.kernel = kernel;
  manifest.backend = options.backend == TCPU_BACKEND_CUDA ? "cuda" : "cpu";
  manifest.seed = options.seed;
  tcpuContext context = nullptr;
  char device[256] = {};
  if (tcpuCtxGetCurrent(&context) == TCPU_SUCCESS &&
      tcpuCtxGetName(device, sizeof device, context) == TCPU_SUCCESS)
    manifest.device = device;
  std::map<std::string, ComparisonRule> rules;
  for (const std::string& text : arguments.all("output")) {
    const size_t equals = text.find('=');
    const std::string name = text.substr(0, equals);
    Expected<ComparisonRule> rule = parseComparisonRule(
        equals == std::string::npos ? std::string_view("exact")
                                    : std::string_view(text).substr(equals + 1));
    if (!rule)
      return Status(rule.status().code(), concat("--output ", text, ": ", rule.status().message()));
    rules[name] = *rule;
  }
  for (const auto& [name, array] : arrays) {
    if (array->type == TCPU_TYPE_BF16) manifest.bf16Arrays.push_back(name);
    if (auto it = rules.find(name); it != rules.end()) {
      manifest.outputs.emplace_back(name, it->second);
      rules.erase(it);
    } else {
      manifest.inputs.push_back(name);
    }
  }
  std::sort(manifest.bf16Arrays.begin(), manifest.bf16Arrays.end());
  if (!rules.empty())
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("--output ", rules.begin()->first, " is neither an array parameter of '",
                         kernel, "' (", listParameters(parameters), ") nor a --buffer"));
  if (manifest.outputs.empty())
    return Status(TCPU_ERROR_INVALID_VALUE, "--xcheck needs at least one --output PARAM[=RULE]");
  return manifest;
}

std::optional<Failure> run(const ParsedArguments& arguments, std::ostream& out) {
  Options options;
  if (std::optional<Failure> failure = parseOptions(arguments, options)) return failure;
  MathOptions math;
  if (std::optional<Failure> failure = parseMathOptions(arguments, math)) return failure;
  if (Status started = startRuntime(); !started.ok())
    return Failure{kExitInputOutput, started.message()};

  tcpuContext context = nullptr;
  if (options.backend != TCPU_BACKEND_CPU)
    if (const tcpuResult result = tcpuCtxCreate(&context, options.backend, options.ordinal);
        result != TCPU_SUCCESS)
      return Failure{kExitInputOutput, runtimeFailure(result, "--backend").message()};
  const ContextHandle contextHandle(context);

  const std::string& path = arguments.positionals.front();
  const std::string kernel = *arguments.get("kernel");
  ModuleLoadOptions loadOptions;
  if (std::optional<std::string> signature = arguments.get("signature")) {
    loadOptions.signature = signature;
    loadOptions.kernelName = kernel; // the kernel the signature is for
  }
  Expected<ModuleHandle> module = loadModule(path, loadOptions, math);
  if (!module)
    return Failure{exitCodeForLoadFailure(module.status(), loadOptions), module.status().message()};
  tcpuFunction function = nullptr;
  if (const tcpuResult result = tcpuModuleGetFunction(&function, module->get(), kernel.c_str());
      result != TCPU_SUCCESS)
    return Failure{result == TCPU_ERROR_NOT_FOUND ? kExitUsage : kExitInputOutput,
                   concat("--kernel ", kernel, ": ", tcpuGetLastErrorDetail())};
  Expected<std::vector<KernelParameter>> parameters = kernelParameters(function);
  if (!parameters) return Failure{kExitInputOutput, parameters.status().message()};

  const std::vector<std::string>& texts = arguments.all("arg");
  if (texts.size() != parameters->size())
    return Failure{kExitUsage,
                   concat("kernel '", kernel, "' takes ", parameters->size(), " arguments (",
                          listParameters(*parameters), ") but ", texts.size(), " --arg ",
                          texts.size() == 1 ? "was" : "were", " given")};
  std::vector<RunArgument> values;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    Expected<RunArgument> value = parseRunArgument((*parameters)[i], i, texts[i], options.seed);
    if (!value) return Failure{exitCodeForArgument(value.status()), value.status().message()};
    values.push_back(value.take());
  }
  const std::vector<std::string> names = outputNames(*parameters);
  std::vector<NamedBuffer> buffers;
  for (const std::string& text : arguments.all("buffer")) {
    Expected<NamedBuffer> buffer =
        parseNamedBuffer(text, parameters->size() + buffers.size(), options.seed);
    if (!buffer) return Failure{exitCodeForArgument(buffer.status()), buffer.status().message()};
    const auto sameName = [&](const NamedBuffer& other) { return other.name == buffer->name; };
    if (std::find(names.begin(), names.end(), buffer->name) != names.end() ||
        std::any_of(buffers.begin(), buffers.end(), sameName))
      return Failure{kExitUsage, concat("--buffer ", buffer->name,
                                        ": the name is taken by a parameter or another --buffer (",
                                        listParameters(*parameters), ")")};
    buffers.push_back(buffer.take());
  }
  Expected<std::array<uint32_t, 3>> grid = computeGrid(*arguments.get("grid"), *parameters, values);
  if (!grid) return Failure{kExitUsage, grid.status().message()};

  std::optional<XcheckManifest> manifest;
  if (arguments.has("xcheck")) {
    Expected<XcheckManifest> made =
        xcheckManifest(arguments, kernel, *parameters, runArrays(names, values, buffers), options);
    if (!made) return Failure{kExitUsage, made.status().message()};
    manifest = made.take();
  } else if (arguments.has("output")) {
    return Failure{kExitUsage, "--output is for --xcheck runs"};
  }

  Expected<LaunchArguments> launch = LaunchArguments::upload(values, names, buffers);
  if (!launch)
    return Failure{launch.status().code() == TCPU_ERROR_INVALID_VALUE ? kExitUsage
                                                                      : kExitInputOutput,
                   launch.status().message()};
  Expected<std::vector<double>> times =
      launchRepeatedly(function, kernel, *grid, *launch, parameters->size(), options);
  if (!times)
    return Failure{times.status().code() == TCPU_ERROR_CANCELLED ? kExitInterrupted
                                                                 : kExitKernelFailure,
                   times.status().message()};
  if (Status copied = launch->download(values, buffers); !copied.ok())
    return Failure{kExitKernelFailure, copied.message()};

  const NamedArrays arrays = runArrays(names, values, buffers);
  uint64_t bufferBytes = 0;
  for (const auto& [name, array] : arrays)
    bufferBytes += array->data.size();
  reportTimes(out, kernel, *grid, times.take(), bufferBytes);
  if (Status written = writeOutputs(options.outDir, arrays, out); !written.ok())
    return Failure{kExitInputOutput, written.message()};
  if (manifest)
    if (Status written = writeOutputFiles(
            {{(options.outDir / kXcheckManifestName).string(), formatManifest(*manifest)}});
        !written.ok())
      return Failure{kExitInputOutput, written.message()};
  return std::nullopt;
}

} // namespace

int runRun(std::span<const std::string> arguments, Console console) {
  CommandStart start = startCommand(kSpec, arguments, console);
  if (!start.arguments) return start.exitCode;
  try {
    if (std::optional<Failure> failure = run(*start.arguments, console.out))
      return reportFailure(console, "run", failure->message, failure->exitCode);
  } catch (const std::bad_alloc&) {
    return reportFailure(console, "run", "out of memory for the arguments' buffers",
                         kExitInputOutput);
  }
  return kExitSuccess;
}

} // namespace tcpu::cli
