// The .npy reader and writer (tools/src/formats/npy.cpp): any bytes give an array or an "npy: ..."
// error; an array read is written back (version 1.0, as numpy.save) and read again unchanged.
#include <cstring>
#include <span>
#include <string>

#include "formats/npy.hpp"
#include "fuzz_support.hpp"

namespace tcpu::fuzz {

int fuzzNpy(const uint8_t* data, size_t size) {
  const std::span<const std::byte> file(reinterpret_cast<const std::byte*>(data), size);
  Expected<cli::NpyArray> array = cli::parseNpy(file);
  if (!array) {
    TCPU_FUZZ_CHECK(array.status().code() == TCPU_ERROR_INVALID_VALUE, array.status().message());
    TCPU_FUZZ_CHECK(array.status().message().starts_with("npy: "), array.status().message());
    return 0;
  }
  TCPU_FUZZ_CHECK(!cli::npyDescriptor(array->type).empty(), "a type without a descriptor");
  TCPU_FUZZ_CHECK(array->data.size() <= size, "more data than bytes in the file");
  Expected<std::string> written = cli::formatNpy(*array);
  TCPU_FUZZ_CHECK(written.ok(), written.status().message());
  // NumPy's layout: a 64-byte aligned start of the data, a header ending in '\n'.
  const size_t headerLength = static_cast<uint8_t>((*written)[8]) |
                              static_cast<size_t>(static_cast<uint8_t>((*written)[9])) << 8;
  TCPU_FUZZ_CHECK((10 + headerLength) % 64 == 0, concat("header of ", headerLength, " bytes"));
  TCPU_FUZZ_CHECK((*written)[10 + headerLength - 1] == '\n', "the header does not end in '\\n'");
  Expected<cli::NpyArray> again = cli::parseNpy(std::span<const std::byte>(
      reinterpret_cast<const std::byte*>(written->data()), written->size()));
  TCPU_FUZZ_CHECK(again.ok(), again.status().message());
  TCPU_FUZZ_CHECK(again->type == array->type, concat(again->type, " != ", array->type));
  TCPU_FUZZ_CHECK(again->shape == array->shape, "the shape changed");
  TCPU_FUZZ_CHECK(again->data == array->data, "the data changed");
  return 0;
}

} // namespace tcpu::fuzz

TCPU_FUZZ_ENTRY(fuzzNpy)
