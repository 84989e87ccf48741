// The last launches of the process, kept for the crash report: a kernel that writes a little
// past a buffer rarely faults itself; the process dies later, elsewhere (in free, at exit),
// and the report then names the kernels that ran last instead of nothing.
#ifndef TCPU_SRC_RECENT_LAUNCHES_HPP
#define TCPU_SRC_RECENT_LAUNCHES_HPP

#include <cstddef>
#include <cstdint>

namespace tcpu::detail {

struct RecentLaunch {
  char name[64]; // the kernel's name, cut to fit, NUL-terminated
  uint32_t grid[3];
};

// Records a launch (its name is copied: the module may be unloaded before the process dies).
void recordLaunch(const char* name, const uint32_t (&grid)[3]);

// How many launches the process has recorded in all.
uint64_t launchesRecorded();

// Copies the most recent launches, newest first, into `out` (at most `capacity`); returns how
// many. Async-signal-safe: no locks, no allocation (a launch recorded meanwhile by another
// thread may show a mix of two names).
size_t recentLaunches(RecentLaunch* out, size_t capacity);

} // namespace tcpu::detail

#endif // TCPU_SRC_RECENT_LAUNCHES_HPP
