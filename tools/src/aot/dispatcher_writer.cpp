#include "aot/dispatcher_writer.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace tcpu::cli {
namespace {

// Names private to NAME.c. The tcpu_link_ prefix keeps them apart from the kernels' names,
// and the clash check below catches the rest.
constexpr const char* kFirstErrorHelper = "tcpu_link_first_error";
std::string algorithmTypeName(const LinkedKernel& kernel) {
  return concat("tcpu_link_", kernel.name, "_algorithm");
}
std::string algorithmTableName(const LinkedKernel& kernel) {
  return concat("tcpu_link_", kernel.name, "_algorithms");
}

std::string hintsText(const Specialization& specialization) {
  std::string text;
  for (ArgumentHint hint : specialization.hints) {
    text += text.empty() ? "" : ",";
    text += hint == ArgumentHint::kNone ? "0" : hint == ArgumentHint::kEqualToOne ? "1" : "16";
  }
  return text;
}

// "tcpuStream stream, float* x, int32_t n" (no trailing comma when there are no arguments).
std::string parameterList(const std::vector<KernelArgument>& arguments) {
  std::string list = "tcpuStream stream";
  for (const KernelArgument& argument : arguments)
    list += ", " + argument.declaration();
  return list;
}

std::string argumentList(const std::vector<KernelArgument>& arguments) {
  std::string list = "stream";
  for (const KernelArgument& argument : arguments)
    list += ", " + argument.name;
  return list;
}

// The arguments a specialized launcher takes: those not assumed equal to 1.
std::vector<KernelArgument> launcherArguments(const Specialization& specialization) {
  std::vector<KernelArgument> kept;
  for (std::size_t i = 0; i < specialization.arguments.size(); ++i)
    if (specialization.hints[i] != ArgumentHint::kEqualToOne)
      kept.push_back(specialization.arguments[i]);
  return kept;
}

// "(uintptr_t)x % 16 == 0 && n == 1", or empty when the specialization assumes nothing. No
// parentheses around the terms: clang warns on `if ((n == 1))`.
std::string dispatchCondition(const Specialization& specialization) {
  std::string condition;
  for (std::size_t i = 0; i < specialization.arguments.size(); ++i) {
    const KernelArgument& argument = specialization.arguments[i];
    const ArgumentHint hint = specialization.hints[i];
    if (hint == ArgumentHint::kNone) continue;
    condition += condition.empty() ? "" : " && ";
    if (hint == ArgumentHint::kEqualToOne)
      condition += concat(argument.name, " == 1");
    else if (argument.isPointer)
      condition += concat("(uintptr_t)", argument.name, " % 16 == 0");
    else
      condition += concat(argument.name, " % 16 == 0");
  }
  return condition;
}

// File names go into /* */ comments; a "*/" in one must not end the comment.
std::string commentSafe(std::string text) {
  for (std::size_t at = text.find("*/"); at != std::string::npos; at = text.find("*/", at))
    text.replace(at, 2, "* /");
  return text;
}

std::string includeGuard(const std::string& headerName) {
  std::string guard = "TCPU_LINK_";
  for (char c : headerName) {
    const bool alphanumeric =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    guard += alphanumeric ? static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c) : '_';
  }
  return guard;
}

// Every name NAME.h and NAME.c declare at file scope, with what it is, so that a clash (kernel
// "a" with algorithm "default" against kernel "a_default") is an error here rather than in the
// C compiler.
class GeneratedNames {
public:
  Status add(const std::string& name, const std::string& what) {
    auto [found, inserted] = names_.emplace(name, what);
    if (inserted) return {};
    return Status(TCPU_ERROR_INVALID_VALUE, concat("the generated name '", name, "' of ", what,
                                                   " is also the name of ", found->second));
  }

private:
  std::map<std::string, std::string> names_;
};

Status checkGeneratedNames(const std::vector<LinkedKernel>& kernels) {
  GeneratedNames names;
  std::vector<std::pair<std::string, std::string>> all;
  all.emplace_back(kFirstErrorHelper, "tcpu link's error helper");
  for (const LinkedKernel& kernel : kernels) {
    for (const LinkedAlgorithm& algorithm : kernel.algorithms) {
      for (const Specialization& specialization : algorithm.specializations) {
        const std::string what = "the specialization from " + specialization.location();
        all.emplace_back(specialization.function, what);
        all.emplace_back("load_" + specialization.function, "the loader of " + what);
        all.emplace_back("unload_" + specialization.function, "the unloader of " + what);
      }
      const std::string what =
          concat("the dispatcher of ", kernel.name, " for algorithm ", algorithm.algorithm);
      all.emplace_back(algorithm.dispatcher, what);
      all.emplace_back("load_" + algorithm.dispatcher, "the loader of " + what);
      all.emplace_back("unload_" + algorithm.dispatcher, "the unloader of " + what);
    }
    all.emplace_back(kernel.name, "the dispatcher of " + kernel.name);
    all.emplace_back(kernel.name + "_default", "the default dispatcher of " + kernel.name);
    all.emplace_back(kernel.name + "_get_num_algos", "the algorithm count of " + kernel.name);
    all.emplace_back("load_" + kernel.name, "the loader of " + kernel.name);
    all.emplace_back("unload_" + kernel.name, "the unloader of " + kernel.name);
    all.emplace_back(algorithmTypeName(kernel), "the algorithm type of " + kernel.name);
    all.emplace_back(algorithmTableName(kernel), "the algorithm table of " + kernel.name);
  }
  for (const auto& [name, what] : all)
    if (Status status = names.add(name, what); !status.ok()) return status;
  return {};
}

// load_ or unload_ of each part, attempting every one and returning the first error, so that
// one failure neither hides another part's state nor is swallowed.
void writeEachReturningFirstError(std::ostream& out, const std::string& function,
                                  const std::vector<std::string>& parts) {
  out << "tcpuResult " << function << "(void) {\n  tcpuResult result = TCPU_SUCCESS;\n";
  for (const std::string& part : parts)
    out << "  result = " << kFirstErrorHelper << "(result, " << part << "());\n";
  out << "  return result;\n}\n\n";
}

void writeAlgorithmDispatcher(std::ostream& out, const LinkedKernel& kernel,
                              std::size_t algorithmId) {
  const LinkedAlgorithm& algorithm = kernel.algorithms[algorithmId];
  out << "/* " << kernel.name << ", algorithm " << algorithmId << " (" << algorithm.algorithm
      << "): the most specialized launcher whose assumptions hold. */\n";
  out << "tcpuResult " << algorithm.dispatcher << "(" << parameterList(kernel.arguments) << ") {\n";
  bool alwaysMatched = false;
  for (const Specialization& specialization : algorithm.specializations) {
    const std::string call =
        concat(specialization.function, "(", argumentList(launcherArguments(specialization)), ")");
    const std::string condition = dispatchCondition(specialization);
    if (condition.empty()) {
      // planDispatchers allows one such per algorithm, and sorts it last.
      out << "  return " << call << ";\n";
      alwaysMatched = true;
      break;
    }
    out << "  if (" << condition << ")\n    return " << call << ";\n";
  }
  if (!alwaysMatched)
    out << "  /* no specialization's assumptions hold */\n  return TCPU_ERROR_INVALID_VALUE;\n";
  out << "}\n\n";

  std::vector<std::string> functions;
  for (const Specialization& specialization : algorithm.specializations)
    functions.push_back(specialization.function);
  std::vector<std::string> loads, unloads;
  for (const std::string& function : functions) {
    loads.push_back("load_" + function);
    unloads.push_back("unload_" + function);
  }
  writeEachReturningFirstError(out, "load_" + algorithm.dispatcher, loads);
  writeEachReturningFirstError(out, "unload_" + algorithm.dispatcher, unloads);
}

void writeKernelDispatchers(std::ostream& out, const LinkedKernel& kernel) {
  for (std::size_t id = 0; id < kernel.algorithms.size(); ++id)
    writeAlgorithmDispatcher(out, kernel, id);

  const std::string parameters = parameterList(kernel.arguments);
  const std::string arguments = argumentList(kernel.arguments);
  const std::string table = algorithmTableName(kernel);
  out << "typedef tcpuResult (*" << algorithmTypeName(kernel) << ")(" << parameters << ");\n";
  out << "static const " << algorithmTypeName(kernel) << " " << table << "[] = {\n";
  for (const LinkedAlgorithm& algorithm : kernel.algorithms)
    out << "    " << algorithm.dispatcher << ",\n";
  out << "};\n\n";

  out << "int " << kernel.name << "_get_num_algos(void) {\n"
      << "  return (int)(sizeof(" << table << ") / sizeof(" << table << "[0]));\n}\n\n";

  // algo_id is checked, not asserted: it often comes from a configuration or a tuner.
  out << "tcpuResult " << kernel.name << "(" << parameters << ", int algo_id) {\n"
      << "  if (algo_id < 0 || algo_id >= " << kernel.name << "_get_num_algos())\n"
      << "    return TCPU_ERROR_INVALID_VALUE;\n"
      << "  return " << table << "[algo_id](" << arguments << ");\n}\n\n";

  out << "tcpuResult " << kernel.name << "_default(" << parameters << ") {\n"
      << "  return " << kernel.name << "(" << arguments << ", 0);\n}\n\n";

  std::vector<std::string> loads, unloads;
  for (const LinkedAlgorithm& algorithm : kernel.algorithms) {
    loads.push_back("load_" + algorithm.dispatcher);
    unloads.push_back("unload_" + algorithm.dispatcher);
  }
  writeEachReturningFirstError(out, "load_" + kernel.name, loads);
  writeEachReturningFirstError(out, "unload_" + kernel.name, unloads);
}

// Most hinted arguments first; ties in input order (Triton's stable sort on -num_specs).
std::vector<Specialization> mostSpecializedFirst(std::vector<Specialization> specializations) {
  std::vector<std::size_t> hintCounts;
  for (const Specialization& specialization : specializations)
    hintCounts.push_back(specialization.hintedArgumentCount());
  const std::size_t mostHints = *std::max_element(hintCounts.begin(), hintCounts.end());
  std::vector<Specialization> ordered;
  for (std::size_t hints = mostHints + 1; hints-- > 0;)
    for (std::size_t i = 0; i < specializations.size(); ++i)
      if (hintCounts[i] == hints) ordered.push_back(std::move(specializations[i]));
  return ordered;
}

} // namespace

Expected<std::vector<LinkedKernel>> planDispatchers(const std::vector<Specialization>& inputs) {
  std::vector<LinkedKernel> kernels;
  std::map<std::string, const Specialization*> byFunction;
  for (const Specialization& specialization : inputs) {
    auto [earlier, inserted] = byFunction.emplace(specialization.function, &specialization);
    if (!inserted)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("specialization ", specialization.function, " is given twice: in ",
                           earlier->second->location(), " and in ", specialization.location()));

    auto kernel = std::find_if(kernels.begin(), kernels.end(), [&](const LinkedKernel& k) {
      return k.name == specialization.kernelName;
    });
    if (kernel == kernels.end()) {
      kernels.push_back({specialization.kernelName, specialization.arguments, {}});
      kernel = kernels.end() - 1;
    } else if (kernel->arguments != specialization.arguments) {
      const Specialization& first = kernel->algorithms.front().specializations.front();
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("specializations of ", kernel->name, " disagree on the signature: '",
                           first.fullSignature(), "' in ", first.location(), " but '",
                           specialization.fullSignature(), "' in ", specialization.location()));
    }

    auto algorithm = std::find_if(
        kernel->algorithms.begin(), kernel->algorithms.end(),
        [&](const LinkedAlgorithm& a) { return a.algorithm == specialization.algorithm; });
    if (algorithm == kernel->algorithms.end()) {
      kernel->algorithms.push_back(
          {specialization.algorithm,
           concat(specialization.kernelName, "_", specialization.algorithm),
           {}});
      algorithm = kernel->algorithms.end() - 1;
    }
    for (const Specialization& sibling : algorithm->specializations)
      if (sibling.hints == specialization.hints)
        return Status(TCPU_ERROR_INVALID_VALUE,
                      concat("specializations ", sibling.function, " (", sibling.location(),
                             ") and ", specialization.function, " (", specialization.location(),
                             ") of ", algorithm->dispatcher, " both have hints ",
                             hintsText(specialization), ": the second could never run"));
    algorithm->specializations.push_back(specialization);
  }
  for (LinkedKernel& kernel : kernels)
    for (LinkedAlgorithm& algorithm : kernel.algorithms)
      algorithm.specializations = mostSpecializedFirst(std::move(algorithm.specializations));
  if (Status status = checkGeneratedNames(kernels); !status.ok()) return status;
  return kernels;
}

std::string writeDispatcherHeader(const std::vector<LinkedKernel>& kernels,
                                  const std::string& headerName,
                                  const std::vector<std::string>& inputs) {
  ClassicStream out;
  out << "/* Generated by tcpu link from";
  for (const std::string& input : inputs)
    out << " " << commentSafe(input);
  out << ". Do not edit.\n"
         " * Per kernel: KERNEL(stream, arguments..., algo_id) runs algorithm algo_id in\n"
         " * [0, KERNEL_get_num_algos()), KERNEL_default runs algorithm 0; each algorithm calls\n"
         " * its most specialized launcher whose assumptions the arguments meet, and returns\n"
         " * TCPU_ERROR_INVALID_VALUE when none does. Call load_KERNEL() before launching. */\n";
  const std::string guard = includeGuard(headerName);
  out << "#ifndef " << guard << "\n#define " << guard << "\n"
      << "#ifndef __cplusplus\n#include <stdbool.h>\n#endif\n"
      << "#include <stdint.h>\n#include <tcpu/tcpu.h>\n"
      << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
  for (const LinkedKernel& kernel : kernels) {
    const std::string parameters = parameterList(kernel.arguments);
    out << "\n/* " << kernel.name << ": " << kernel.algorithms.size() << " algorithm"
        << (kernel.algorithms.size() == 1 ? "" : "s") << " */\n";
    for (std::size_t id = 0; id < kernel.algorithms.size(); ++id) {
      const LinkedAlgorithm& algorithm = kernel.algorithms[id];
      out << "tcpuResult " << algorithm.dispatcher << "(" << parameters << "); /* algo_id " << id
          << " */\n"
          << "tcpuResult load_" << algorithm.dispatcher << "(void);\n"
          << "tcpuResult unload_" << algorithm.dispatcher << "(void);\n";
    }
    out << "int " << kernel.name << "_get_num_algos(void);\n"
        << "tcpuResult " << kernel.name << "(" << parameters << ", int algo_id);\n"
        << "tcpuResult " << kernel.name << "_default(" << parameters << ");\n"
        << "tcpuResult load_" << kernel.name << "(void);\n"
        << "tcpuResult unload_" << kernel.name << "(void);\n";
  }
  out << "\n#ifdef __cplusplus\n}\n#endif\n#endif /* " << guard << " */\n";
  return out.str();
}

std::string writeDispatcherSource(const std::vector<LinkedKernel>& kernels,
                                  const std::string& headerName) {
  ClassicStream out;
  out << "/* Generated by tcpu link. Do not edit. */\n"
      << "#include \"" << headerName << "\"\n\n"
      << "#include <stdint.h>\n#include <tcpu/tcpu.h>\n\n"
      << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  out << "/* The specializations, defined in the objects tcpu compile wrote. */\n";
  for (const LinkedKernel& kernel : kernels)
    for (const LinkedAlgorithm& algorithm : kernel.algorithms)
      for (const Specialization& specialization : algorithm.specializations)
        out << "tcpuResult " << specialization.function << "("
            << parameterList(launcherArguments(specialization)) << ");\n"
            << "tcpuResult load_" << specialization.function << "(void);\n"
            << "tcpuResult unload_" << specialization.function << "(void);\n";
  out << "\nstatic tcpuResult " << kFirstErrorHelper
      << "(tcpuResult first, tcpuResult next) {\n"
         "  return first != TCPU_SUCCESS ? first : next;\n}\n\n";
  for (const LinkedKernel& kernel : kernels)
    writeKernelDispatchers(out, kernel);
  out << "#ifdef __cplusplus\n}\n#endif\n";
  return out.str();
}

} // namespace tcpu::cli
