#include "settings/settings.hpp"

#include "settings/openmp_environment.hpp"
#include "tcpu/environment.hpp"

#include <omp.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace tcpu::detail {
namespace {

constexpr uint64_t kMaxThreads = 4096;

} // namespace

Expected<std::pair<tcpuSchedule, uint32_t>> parseSchedule(const std::string& text) {
  const std::string::size_type comma = text.find(',');
  const std::string kind = text.substr(0, comma);
  tcpuSchedule schedule;
  if (kind == "static")
    schedule = TCPU_SCHEDULE_STATIC;
  else if (kind == "dynamic")
    schedule = TCPU_SCHEDULE_DYNAMIC;
  else if (kind == "guided")
    schedule = TCPU_SCHEDULE_GUIDED;
  else
    return Status(
        TCPU_ERROR_INVALID_VALUE,
        concat("TCPU_SCHEDULE='", text, "': unknown schedule '", kind,
               "' (expected static, dynamic or guided, optionally followed by ,<chunk>)"));
  uint32_t chunk = 0;
  if (comma != std::string::npos) {
    Expected<uint64_t> parsed =
        parseWholeNumber(text.substr(comma + 1), "the chunk", 0, UINT32_MAX);
    if (!parsed)
      return Status(TCPU_ERROR_INVALID_VALUE,
                    concat("TCPU_SCHEDULE='", text, "': ", parsed.status().message()));
    chunk = static_cast<uint32_t>(*parsed);
  }
  return std::pair{schedule, chunk};
}

Status Settings::loadEnvironment() {
  // Everything is parsed before anything changes: a bad variable leaves the
  // settings as they were. The boolean variables are checked here too, so that a bad one
  // fails tcpuInit instead of being taken for its default where it is read.
  if (Status flags = checkEnvironmentFlags(); !flags.ok()) return flags;
  // Before the first call into the OpenMP runtime, which reads OMP_* itself then.
  if (Status openMp = checkOpenMpEnvironment(); !openMp.ok()) return openMp;
  int threads = omp_get_num_procs();
  for (const char* variable : {"TCPU_NUM_THREADS", "OMP_NUM_THREADS"}) {
    const char* value = std::getenv(variable);
    if (!value) continue;
    // OMP_NUM_THREADS may be a list ("4,2") for nested levels; the first entry is ours.
    std::string text = value;
    if (std::string(variable) == "OMP_NUM_THREADS") text = text.substr(0, text.find(','));
    Expected<uint64_t> parsed = parseWholeNumber(text, variable, 1, kMaxThreads);
    if (!parsed) return parsed.status();
    threads = static_cast<int>(*parsed);
    break;
  }
  std::optional<std::pair<tcpuSchedule, uint32_t>> schedule;
  if (const char* value = std::getenv("TCPU_SCHEDULE")) {
    auto parsed = parseSchedule(value);
    if (!parsed) return parsed.status();
    schedule = *parsed;
  }
  // checkEnvironmentFlags refused a bad value above.
  const bool guard = *environmentFlag("TCPU_MEM_GUARD", false);
  defaultThreads_.store(threads, std::memory_order_relaxed);
  guardAllocations_.store(guard, std::memory_order_relaxed);
  environmentSchedule_.store(schedule ? packSchedule(schedule->first, schedule->second, true)
                                      : packSchedule(kDefaultSchedule, 0, false),
                             std::memory_order_relaxed);
  // A schedule set through the API wins over the environment, as the thread count does.
  if (!explicitSchedule_.load(std::memory_order_relaxed)) restoreDefaultSchedule();
  return {};
}

int Settings::numThreads() const {
  const int chosen = explicitThreads_.load(std::memory_order_relaxed);
  return chosen > 0 ? chosen : defaultThreads_.load(std::memory_order_relaxed);
}

LaunchSettings Settings::launchSettings() const {
  const uint64_t packed = schedule_.load(std::memory_order_relaxed);
  return {numThreads(), static_cast<tcpuSchedule>((packed & ~kChosen) >> 32),
          static_cast<uint32_t>(packed), (packed & kChosen) != 0};
}

LaunchSettings LaunchSettings::forKernel(uint32_t flags) const {
  LaunchSettings settings = *this;
  if (!scheduleChosen && (flags & TCPU_KERNEL_PROGRAMS_WAIT)) {
    settings.schedule = kWaitingSchedule;
    settings.chunk = kWaitingChunk;
  }
  return settings;
}

void Settings::setNumThreads(int numThreads) {
  explicitThreads_.store(numThreads, std::memory_order_relaxed);
}

void Settings::setSchedule(tcpuSchedule schedule, uint32_t chunk) {
  explicitSchedule_.store(true, std::memory_order_relaxed);
  schedule_.store(packSchedule(schedule, chunk, true), std::memory_order_relaxed);
}

void Settings::restoreDefaultSchedule() {
  explicitSchedule_.store(false, std::memory_order_relaxed);
  schedule_.store(environmentSchedule_.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

void Settings::setHooks(const LaunchHooks& hooks) {
  std::lock_guard lock(hooksMutex_);
  hooks_ = hooks;
  hasHooks_.store(hooks.enter || hooks.exit, std::memory_order_release);
}

LaunchHooks Settings::hooks() const {
  std::lock_guard lock(hooksMutex_);
  return hooks_;
}

} // namespace tcpu::detail
