// Names the kernel and the program that raised a fatal signal before the
// process dies; outside a kernel, after launches, names the last kernels launched
// (a kernel that wrote past a buffer leaves a heap that fails later: in free, at
// exit, as SIGABRT or SIGSEGV) and suggests TCPU_CHECK=bounds. A kernel that
// dereferences a wild pointer or divides an integer by zero cannot be stopped and resumed safely on
// the CPU (the fault is in compiled code that holds no runtime state we could unwind), so the
// handler only writes a line to stderr (and, for SIGSEGV and SIGBUS, a second
// one suggesting TCPU_CHECK=bounds) and hands the signal on to whatever handled
// it before: a sanitizer, LLVM's crash recovery, or the default action, which
// ends the process with the same signal (and core dump) as without tcpu.
#ifndef TCPU_SRC_CRASH_REPORT_HPP
#define TCPU_SRC_CRASH_REPORT_HPP

namespace tcpu::detail {

// Installs the handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT once per process, on top of
// the handlers installed so far; TCPU_CRASH_REPORT=0 in the environment leaves the process's
// handlers alone. Called by the first launch (after the first compile, so that a handler
// LLVM's crash recovery installs sits below this one and the report keeps the faulting
// address).
void installCrashReport();

} // namespace tcpu::detail

#endif // TCPU_SRC_CRASH_REPORT_HPP
