// Reading a command's input files whole, with messages that say which file and why.
#ifndef TCPU_TOOLS_INPUT_FILES_HPP
#define TCPU_TOOLS_INPUT_FILES_HPP

#include <cstdint>
#include <filesystem>
#include <string>

#include "tcpu/status.hpp"

namespace tcpu::cli {

// Inputs larger than this are refused before they are read (kernels, manifests and arrays are
// far smaller; a mistaken path to a disk image should not take the machine's memory).
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{1} << 30;

// The file's bytes. TCPU_ERROR_FILE_NOT_FOUND when it does not exist, TCPU_ERROR_OPERATING_SYSTEM
// when it is not a regular file (a directory, a FIFO, a device), is larger than
// kMaxInputFileBytes, or cannot be read; messages start with the quoted path. Every command's
// input files are read here.
Expected<std::string> readInputFile(const std::filesystem::path& path);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_INPUT_FILES_HPP
