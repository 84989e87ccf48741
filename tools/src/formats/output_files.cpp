#include "formats/output_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace tcpu::cli {
namespace {

// Writes `contents` to a new temporary file next to `path`; returns its name.
Expected<std::string> writeTemporary(const std::string& path, const std::string& contents) {
  std::string name = path + ".tmp-XXXXXX";
  const int fd = mkstemp(name.data());
  if (fd < 0)
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot write '", path, "': ", std::strerror(errno)));
  std::size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      ::unlink(name.c_str());
      return Status(TCPU_ERROR_OPERATING_SYSTEM,
                    concat("cannot write '", path, "': ", std::strerror(error)));
    }
    written += static_cast<std::size_t>(n);
  }
  // mkstemp makes the file private (0600); outputs are build artifacts others may read.
  ::fchmod(fd, 0644);
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(name.c_str());
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot write '", path, "': ", std::strerror(error)));
  }
  return name;
}

} // namespace

Status writeOutputFiles(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::string> temporaries;
  const auto removeAll = [](const std::vector<std::string>& paths) {
    for (const std::string& path : paths)
      ::unlink(path.c_str());
  };
  for (const auto& [path, contents] : files) {
    Expected<std::string> temporary = writeTemporary(path, contents);
    if (!temporary) {
      removeAll(temporaries);
      return temporary.status();
    }
    temporaries.push_back(temporary.take());
  }
  std::vector<std::string> published;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (std::rename(temporaries[i].c_str(), files[i].first.c_str()) != 0) {
      const int error = errno;
      removeAll({temporaries.begin() + static_cast<std::ptrdiff_t>(i), temporaries.end()});
      removeAll(published);
      return Status(TCPU_ERROR_OPERATING_SYSTEM,
                    concat("cannot write '", files[i].first, "': ", std::strerror(error)));
    }
    published.push_back(files[i].first);
  }
  return {};
}

} // namespace tcpu::cli
