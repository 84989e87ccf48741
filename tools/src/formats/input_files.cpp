#include "formats/input_files.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace tcpu::cli {

Expected<std::string> readInputFile(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status))
    return Status(TCPU_ERROR_FILE_NOT_FOUND, concat("'", path.string(), "' does not exist"));
  if (!std::filesystem::is_regular_file(status))
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("'", path.string(), "' is not a regular file"));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("'", path.string(), "' cannot be opened: ", std::strerror(errno)));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad())
    return Status(TCPU_ERROR_OPERATING_SYSTEM, concat("reading '", path.string(), "' failed"));
  return bytes;
}

} // namespace tcpu::cli
