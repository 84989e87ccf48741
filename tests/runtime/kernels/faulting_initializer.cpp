// A module whose initializer ends the process when TCPU_TEST_INITIALIZER asks it to, as the
// dynamic loader does on a damaged image: "segv" faults, "ld_so_exit" prints the loader's
// message and exits with its status 127. Otherwise it loads like any module.
#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "tcpu/kernel.hpp"

namespace {

__attribute__((constructor)) void faultWhenAsked() {
  const char* what = std::getenv("TCPU_TEST_INITIALIZER");
  if (!what) return;
  // Raised rather than caused: a store through a wild pointer is a UBSan report (and an
  // abort) in the sanitizer builds, not a fault.
  if (std::strcmp(what, "segv") == 0) std::raise(SIGSEGV);
  if (std::strcmp(what, "ld_so_exit") == 0) {
    const char message[] = "Inconsistency detected by ld.so: test: Assertion failed!\n";
    [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
#if defined(__linux__)
    // As ld.so ends the process: the system call itself, which no sanitizer intercepts.
    syscall(SYS_exit_group, 127);
#else
    _exit(127); // the dlopen probe that meets ld.so's exits is Linux's
#endif
  }
}

} // namespace

void initializer_module_kernel(uint32_t* out, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                               uint32_t) {
  *out = 11;
}
TCPU_EXPORT_KERNEL(initializer_module_kernel)
