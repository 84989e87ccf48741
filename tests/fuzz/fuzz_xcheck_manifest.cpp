// Cross-check manifests (tools/src/xcheck/xcheck_manifest.cpp): parseManifest on the bytes as text.
// Errors must be invalid values naming the origin; an accepted manifest must be written back
// by formatManifest into text that parses to the same manifest (but for line breaks inside
// the device, which are written as spaces) and formats to the same text.
#include <string>

#include "fuzz_support.hpp"
#include "xcheck/xcheck_manifest.hpp"

namespace tcpu::fuzz {

int fuzzXcheckManifest(const uint8_t* data, size_t size) {
  Expected<cli::XcheckManifest> manifest =
      cli::parseManifest(asText(data, size), "run/c/xcheck.txt");
  if (!manifest) {
    TCPU_FUZZ_CHECK(manifest.status().code() == TCPU_ERROR_INVALID_VALUE,
                    manifest.status().message());
    TCPU_FUZZ_CHECK(manifest.status().message().starts_with("run/c/xcheck.txt"),
                    manifest.status().message());
    return 0;
  }
  const std::string text = cli::formatManifest(*manifest);
  Expected<cli::XcheckManifest> again = cli::parseManifest(text, "formatted");
  TCPU_FUZZ_CHECK(again.ok(), concat(again.status().message(), "\n", text));
  cli::XcheckManifest expected = manifest.take();
  for (char& c : expected.device)
    if (c == '\r' || c == '\n') c = ' ';
  TCPU_FUZZ_CHECK(*again == expected, text);
  TCPU_FUZZ_CHECK(cli::formatManifest(*again) == text, text);
  for (const auto& [name, rule] : again->outputs)
    TCPU_FUZZ_CHECK(cli::isXcheckName(name), name);
  return 0;
}

} // namespace tcpu::fuzz

TCPU_FUZZ_ENTRY(fuzzXcheckManifest)
