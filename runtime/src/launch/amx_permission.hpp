// Linux hands out AMX's tile registers only to processes that ask (arch_prctl
// ARCH_REQ_XCOMP_PERM for XTILEDATA, Linux 5.16 and later); a kernel compiled for a CPU with
// AMX (tl's bf16 dot on Sapphire Rapids and later) would otherwise die of SIGILL at its first
// tile instruction. The permission is the whole process's; loading a CPU module asks
// (cpu/cpu_backend.cpp), off the launch path.
#ifndef TCPU_SRC_LAUNCH_AMX_PERMISSION_HPP
#define TCPU_SRC_LAUNCH_AMX_PERMISSION_HPP

namespace tcpu::detail {

enum class AmxPermission {
  notNeeded, // not Linux on x86-64, or the CPU has no AMX
  granted,
  refused, // the kernel is older than 5.16 or does not allow it: AMX code cannot run here
};

// Asks once per process (later calls return the first answer).
AmxPermission requestAmxPermission();

} // namespace tcpu::detail

#endif // TCPU_SRC_LAUNCH_AMX_PERMISSION_HPP
