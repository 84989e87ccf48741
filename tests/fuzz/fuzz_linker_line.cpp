// `// tcpu-linker:` lines (tools/src/aot/linker_header.cpp), as tcpu link reads them from headers:
// any bytes give a Specialization or an error naming the place; an accepted line, written
// back from what was parsed, parses to the same Specialization.
#include <string>

#include "aot/linker_header.hpp"
#include "fuzz_support.hpp"

namespace tcpu::fuzz {
namespace {

std::string hintText(cli::ArgumentHint hint) {
  switch (hint) {
  case cli::ArgumentHint::kNone:
    return "0";
  case cli::ArgumentHint::kDivisibleBy16:
    return "16";
  case cli::ArgumentHint::kEqualToOne:
    return "1";
  }
  return "?";
}

} // namespace

int fuzzLinkerLine(const uint8_t* data, size_t size) {
  const std::string_view text = asText(data, size);
  Expected<cli::Specialization> parsed = cli::parseLinkerLine(text, "fuzz.h", 7);
  if (!parsed) {
    TCPU_FUZZ_CHECK(parsed.status().code() == TCPU_ERROR_INVALID_VALUE, parsed.status().message());
    TCPU_FUZZ_CHECK(parsed.status().message().starts_with("fuzz.h:7: "), parsed.status().message());
    return 0;
  }
  const cli::Specialization& line = *parsed;
  TCPU_FUZZ_CHECK(line.location() == "fuzz.h:7", line.location());
  TCPU_FUZZ_CHECK(line.hints.size() == line.arguments.size(), line.function);
  TCPU_FUZZ_CHECK(cli::isUsableIdentifier(line.kernelName), line.kernelName);
  TCPU_FUZZ_CHECK(line.function == line.kernelName + "_" + line.hash + "_" + line.suffix,
                  line.function);
  TCPU_FUZZ_CHECK(line.hash.size() == 8, line.hash);
  TCPU_FUZZ_CHECK(line.hintedArgumentCount() <= line.arguments.size(), line.function);
  std::string hints;
  for (size_t i = 0; i < line.arguments.size(); ++i) {
    const cli::KernelArgument& argument = line.arguments[i];
    TCPU_FUZZ_CHECK(cli::isUsableIdentifier(argument.name), argument.name);
    TCPU_FUZZ_CHECK(argument.isPointer == argument.type.ends_with("*"), argument.type);
    if (i > 0) hints += ',';
    hints += hintText(line.hints[i]);
  }
  const std::string rewritten = concat(cli::kLinkerLinePrefix, " ", line.function, ":",
                                       line.fullSignature(), ":", line.algorithm, ":", hints);
  Expected<cli::Specialization> again = cli::parseLinkerLine(rewritten, "fuzz.h", 7);
  TCPU_FUZZ_CHECK(again.ok(), concat("'", rewritten, "': ", again.status().message()));
  TCPU_FUZZ_CHECK(again->function == line.function && again->kernelName == line.kernelName &&
                      again->hash == line.hash && again->suffix == line.suffix &&
                      again->arguments == line.arguments && again->algorithm == line.algorithm &&
                      again->hints == line.hints,
                  rewritten);
  return 0;
}

} // namespace tcpu::fuzz

TCPU_FUZZ_ENTRY(fuzzLinkerLine)
