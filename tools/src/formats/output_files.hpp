// Writing a command's output files all or nothing: each goes to a temporary file beside its
// destination, and only when every one is written are they renamed into place. A failed
// command leaves no partial or half-written outputs behind.
#ifndef TCPU_TOOLS_OUTPUT_FILES_HPP
#define TCPU_TOOLS_OUTPUT_FILES_HPP

#include <string>
#include <utility>
#include <vector>

#include "tcpu/status.hpp"

namespace tcpu::cli {

// (path, contents) pairs. On failure, TCPU_ERROR_OPERATING_SYSTEM naming the path and the
// reason; nothing of this call stays on disk.
Status writeOutputFiles(const std::vector<std::pair<std::string, std::string>>& files);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_OUTPUT_FILES_HPP
