// A temporary directory, removed with everything in it when the object goes.
#ifndef TCPU_TESTS_SUPPORT_TEMP_DIR_HPP
#define TCPU_TESTS_SUPPORT_TEMP_DIR_HPP

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace tcpu::test {

class TempDir {
public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tcpu-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

} // namespace tcpu::test

#endif // TCPU_TESTS_SUPPORT_TEMP_DIR_HPP
