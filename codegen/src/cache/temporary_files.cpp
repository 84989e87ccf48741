#include "cache/temporary_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace tcpu::codegen {
namespace {

constexpr std::string_view kMarker = ".tmp.";

bool isNumber(std::string_view text) {
  return !text.empty() && text.size() <= 20 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// What writers of a temporary add to its name for files of their own beside it: the linker's
// input and log (".o", ".log": shared_library_writer.cpp) and clang's own temporary of an output
// ("-" and random letters and digits, then perhaps ".tmp": a precompiled header being written).
bool isTemporarySuffix(std::string_view suffix) {
  if (suffix.empty() || suffix == ".o" || suffix == ".log" || suffix == ".tmp") return true;
  if (!suffix.starts_with('-')) return false;
  suffix.remove_prefix(1);
  if (suffix.ends_with(".tmp")) suffix.remove_suffix(4);
  return !suffix.empty() && suffix.size() <= 16 &&
         std::all_of(suffix.begin(), suffix.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

Status systemError(std::string_view what, const std::filesystem::path& path, int error) {
  return Status(TCPU_ERROR_OPERATING_SYSTEM,
                concat("cannot ", what, " '", path.string(), "': ", std::strerror(error)));
}

} // namespace

std::filesystem::path temporaryPathFor(const std::filesystem::path& path) {
  static std::atomic<uint64_t> counter{0};
  return concat(path.string(), kMarker, ::getpid(), ".", counter++, ".", std::random_device{}());
}

std::optional<TemporaryName> parseTemporaryName(std::string_view fileName) {
  const std::size_t marker = fileName.find(kMarker);
  if (marker == std::string_view::npos) return std::nullopt;
  std::string_view rest = fileName.substr(marker + kMarker.size());
  std::string_view numbers[3];
  for (std::string_view& number : numbers) {
    const std::size_t end = std::min(rest.find_first_not_of("0123456789"), rest.size());
    number = rest.substr(0, end);
    if (!isNumber(number)) return std::nullopt;
    rest.remove_prefix(end);
    if (&number == &numbers[2]) break;
    // clang's own temporary of an output names it "<stem>-XXXXXXXX<extension>.tmp", which
    // splits ours after its second number (written by earlier tcpus: clang now writes ours).
    if (&number == &numbers[1] && rest.starts_with('-')) {
      const std::size_t letters = std::min(rest.find('.'), rest.size());
      if (!isTemporarySuffix(rest.substr(0, letters))) return std::nullopt;
      rest.remove_prefix(letters);
    }
    if (!rest.starts_with('.')) return std::nullopt;
    rest.remove_prefix(1);
  }
  if (!isTemporarySuffix(rest)) return std::nullopt;
  return TemporaryName{fileName.substr(0, marker),
                       std::strtoll(std::string(numbers[0]).c_str(), nullptr, 10)};
}

Status writeFileAtomically(const std::filesystem::path& path, std::string_view bytes) {
  const std::filesystem::path temporary = temporaryPathFor(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return systemError("write", temporary, errno);
  const auto fail = [&](std::string_view what, const std::filesystem::path& name) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return systemError(what, name, error);
  };
  for (std::size_t written = 0; written < bytes.size();) {
    const ssize_t step = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (step < 0 && errno == EINTR) continue;
    if (step < 0) {
      const Status failed = fail("write", temporary);
      ::close(fd);
      return failed;
    }
    written += static_cast<std::size_t>(step);
  }
  if (::close(fd) != 0) return fail("write", temporary);
  if (::rename(temporary.c_str(), path.c_str()) != 0) return fail("rename a temporary to", path);
  return {};
}

} // namespace tcpu::codegen
