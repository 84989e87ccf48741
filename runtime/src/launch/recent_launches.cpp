#include "launch/recent_launches.hpp"

#include <array>
#include <atomic>

namespace tcpu::detail {
namespace {

constexpr size_t kKept = 8;

// Atomics, so that a signal handler (or another launching thread) reading a slot while it is
// written is not a data race; relaxed: a torn name in a crash report is harmless.
struct Slot {
  std::array<std::atomic<char>, sizeof(RecentLaunch::name)> name{};
  std::array<std::atomic<uint32_t>, 3> grid{};
};

std::array<Slot, kKept> slots;
std::atomic<uint64_t> recorded{0};

} // namespace

void recordLaunch(const char* name, const uint32_t (&grid)[3]) {
  // Each launch claims its own slot first, so that launches from several threads at once do
  // not write the same one (a reader may still meet one half written: a torn line at worst).
  Slot& slot = slots[recorded.fetch_add(1, std::memory_order_relaxed) % kKept];
  size_t length = 0;
  if (name)
    for (; name[length] && length + 1 < slot.name.size(); ++length)
      slot.name[length].store(name[length], std::memory_order_relaxed);
  slot.name[length].store('\0', std::memory_order_relaxed);
  for (size_t d = 0; d < 3; ++d)
    slot.grid[d].store(grid[d], std::memory_order_relaxed);
}

uint64_t launchesRecorded() {
  return recorded.load(std::memory_order_relaxed);
}

size_t recentLaunches(RecentLaunch* out, size_t capacity) {
  const uint64_t total = launchesRecorded();
  size_t count = 0;
  for (; count < capacity && count < kKept && count < total; ++count) {
    const Slot& slot = slots[(total - 1 - count) % kKept];
    for (size_t i = 0; i < slot.name.size(); ++i)
      out[count].name[i] = slot.name[i].load(std::memory_order_relaxed);
    out[count].name[sizeof(out[count].name) - 1] = '\0';
    for (size_t d = 0; d < 3; ++d)
      out[count].grid[d] = slot.grid[d].load(std::memory_order_relaxed);
  }
  return count;
}

} // namespace tcpu::detail
