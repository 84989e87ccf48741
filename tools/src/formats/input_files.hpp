// Reading a command's input files whole, with messages that say which file and why.
#ifndef TCPU_TOOLS_INPUT_FILES_HPP
#define TCPU_TOOLS_INPUT_FILES_HPP

#include <filesystem>
#include <string>

#include "tcpu/status.hpp"

namespace tcpu::cli {

// The file's bytes. TCPU_ERROR_FILE_NOT_FOUND when it does not exist, TCPU_ERROR_OPERATING_SYSTEM
// when it is not a regular file or cannot be read; messages start with the quoted path.
Expected<std::string> readInputFile(const std::filesystem::path& path);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_INPUT_FILES_HPP
