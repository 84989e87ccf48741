// Byte counts for people to read: "512 B", "20.1 KB", "1.25 GB" (decimal units, 3 digits).
#ifndef TCPU_TOOLS_FORMAT_SIZE_HPP
#define TCPU_TOOLS_FORMAT_SIZE_HPP

#include <cstdint>
#include <string>

namespace tcpu::cli {

std::string formatSize(uint64_t bytes);

} // namespace tcpu::cli

#endif // TCPU_TOOLS_FORMAT_SIZE_HPP
