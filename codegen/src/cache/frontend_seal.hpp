// The seal of a Python front-end variant (tcpu/frontend_cache.hpp): its .json names the entry and
// variant it was written for and the size and checksum of the library beside it, around the
// front end's own metadata. It is still JSON, for people and tools reading the cache:
//   {"tcpu-python-variant": 1, "entry": "<64 hex>", "variant": "<16 hex>",
//    "library_bytes": <n>, "library_checksum": "<16 hex>", "metadata": <the front end's JSON>}
// (one line). The checksum catches a truncated, zeroed or garbled library; the names catch a whole
// variant of another kernel copied or moved under this one's name.
#ifndef TCPU_CODEGEN_FRONTEND_SEAL_HPP
#define TCPU_CODEGEN_FRONTEND_SEAL_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tcpu::codegen {

struct FrontEndSeal {
  std::string entry;
  std::string variant;
  uint64_t libraryBytes = 0;
  uint64_t libraryChecksum = 0;
  std::string metadata;
};

// A 64-bit checksum of `bytes` (FNV-1a: the files are this user's, in a directory nobody else may
// write to; what it has to catch is damage, not an adversary).
uint64_t libraryChecksum(std::string_view bytes);

// The .json text of `seal`.
std::string writeSeal(const FrontEndSeal& seal);
// The seal in a .json's text; nullopt when the text is not one (damaged, or of an older tcpu).
std::optional<FrontEndSeal> readSeal(std::string_view text);

} // namespace tcpu::codegen

#endif // TCPU_CODEGEN_FRONTEND_SEAL_HPP
