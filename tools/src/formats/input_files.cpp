#include "formats/input_files.hpp"

#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>

namespace tcpu::cli {

Expected<std::string> readInputFile(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  // status() cannot tell "absent" from "not allowed to look" (EACCES on a directory on the way,
  // ELOOP, ENAMETOOLONG): only ENOENT and ENOTDIR are "does not exist".
  if (error && error != std::errc::no_such_file_or_directory && error != std::errc::not_a_directory)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("'", path.string(), "' cannot be examined: ", error.message()));
  if (!std::filesystem::exists(status))
    return Status(TCPU_ERROR_FILE_NOT_FOUND, concat("'", path.string(), "' does not exist"));
  if (!std::filesystem::is_regular_file(status))
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("'", path.string(), "' is not a regular file"));
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxInputFileBytes)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("'", path.string(), "' is ", size, " bytes, more than an input may be (",
                         kMaxInputFileBytes, ")"));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("'", path.string(), "' cannot be opened: ", std::strerror(errno)));
  // libstdc++'s filebuf throws from underflow when read(2) fails, whatever the stream's
  // exception mask: caught here, so that no input error ends the process.
  try {
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
      return Status(TCPU_ERROR_OPERATING_SYSTEM, concat("reading '", path.string(), "' failed"));
    return bytes;
  } catch (const std::exception& e) {
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("reading '", path.string(), "' failed: ", e.what()));
  }
}

} // namespace tcpu::cli
