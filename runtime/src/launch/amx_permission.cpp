#include "launch/amx_permission.hpp"

#if defined(__linux__) && defined(__x86_64__)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace tcpu::detail {

namespace {

AmxPermission ask() {
#if defined(__linux__) && defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return AmxPermission::notNeeded;
  if ((edx & (1u << 24)) == 0) return AmxPermission::notNeeded; // CPUID.7.0:EDX[24], AMX-TILE
  constexpr long kArchReqXcompPerm = 0x1023; // <asm/prctl.h>, not in every libc's headers
  constexpr long kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0
             ? AmxPermission::granted
             : AmxPermission::refused;
#else
  return AmxPermission::notNeeded;
#endif
}

} // namespace

AmxPermission requestAmxPermission() {
  static const AmxPermission answer = ask();
  return answer;
}

} // namespace tcpu::detail
