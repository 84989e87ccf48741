#include "run/launch_arguments.hpp"

#include <cstring>
#include <map>

#include "cli/command_line.hpp"

namespace tcpu::cli {
namespace {

// A device buffer holding `bytes`.
Expected<DeviceBuffer> uploadBytes(const std::vector<std::byte>& bytes) {
  Expected<DeviceBuffer> buffer = DeviceBuffer::allocate(bytes.size());
  if (!buffer) return buffer.status();
  if (!bytes.empty())
    if (const tcpuResult result = tcpuMemcpyHtoD(buffer->get(), bytes.data(), bytes.size());
        result != TCPU_SUCCESS)
      return runtimeFailure(result, "tcpuMemcpyHtoD");
  return buffer;
}

Status downloadBytes(std::vector<std::byte>& bytes, tcpuDeviceptr pointer) {
  if (bytes.empty()) return {};
  if (const tcpuResult result = tcpuMemcpyDtoH(bytes.data(), pointer, bytes.size());
      result != TCPU_SUCCESS)
    return runtimeFailure(result, "tcpuMemcpyDtoH");
  return {};
}

} // namespace

Expected<LaunchArguments> LaunchArguments::upload(std::vector<RunArgument>& values,
                                                  const std::vector<std::string>& parameterNames,
                                                  const std::vector<NamedBuffer>& buffers) {
  LaunchArguments launch;
  launch.pointers_.resize(values.size(), 0);
  std::map<std::string, tcpuDeviceptr> addresses; // every array's, by name
  for (std::size_t i = 0; i < values.size(); ++i)
    if (const auto* array = std::get_if<NpyArray>(&values[i])) {
      Expected<DeviceBuffer> buffer = uploadBytes(array->data);
      if (!buffer) return buffer.status();
      launch.pointers_[i] = addresses[parameterNames[i]] = buffer->get();
      launch.allocations_.push_back(buffer.take());
    }
  for (const NamedBuffer& named : buffers) {
    Expected<DeviceBuffer> buffer = uploadBytes(named.array.data);
    if (!buffer) return buffer.status();
    launch.bufferPointers_.push_back(addresses[named.name] = buffer->get());
    launch.allocations_.push_back(buffer.take());
  }
  // The tables last: they hold the addresses of the arrays above.
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto* table = std::get_if<AddressTable>(&values[i]);
    if (!table) continue;
    std::vector<std::byte> bytes(table->buffers.size() * sizeof(uint64_t));
    for (std::size_t entry = 0; entry < table->buffers.size(); ++entry) {
      const auto found = addresses.find(table->buffers[entry]);
      if (found == addresses.end()) {
        std::string known;
        for (const auto& [name, address] : addresses)
          known += concat(known.empty() ? "" : ", ", name);
        return Status(
            TCPU_ERROR_INVALID_VALUE,
            concat("--arg ", i + 1, " (", parameterNames[i], ") ptrs: '", table->buffers[entry],
                   "' is no array of this run (arrays: ", known.empty() ? "none" : known, ")"));
      }
      const auto address = static_cast<uint64_t>(found->second);
      std::memcpy(bytes.data() + entry * sizeof address, &address, sizeof address);
    }
    Expected<DeviceBuffer> buffer = uploadBytes(bytes);
    if (!buffer) return buffer.status();
    launch.pointers_[i] = buffer->get();
    launch.allocations_.push_back(buffer.take());
  }
  for (std::size_t i = 0; i < values.size(); ++i)
    if (auto* scalar = std::get_if<ScalarValue>(&values[i]))
      launch.params_.push_back(scalar->bytes.data());
    else
      launch.params_.push_back(&launch.pointers_[i]);
  return launch;
}

Status LaunchArguments::download(std::vector<RunArgument>& values,
                                 std::vector<NamedBuffer>& buffers) const {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (auto* array = std::get_if<NpyArray>(&values[i]))
      if (Status copied = downloadBytes(array->data, pointers_[i]); !copied.ok()) return copied;
  for (std::size_t i = 0; i < buffers.size(); ++i)
    if (Status copied = downloadBytes(buffers[i].array.data, bufferPointers_[i]); !copied.ok())
      return copied;
  return {};
}

} // namespace tcpu::cli
