/*
 * tcpu codegen: compiles LLVM IR kernels (.ll text or .bc bitcode, in the grid
 * ABI) to native code for this CPU and hands them to the runtime.
 *
 * Linking libtcpu_codegen registers its module loader when the library loads,
 * so tcpuModuleLoad(&m, "kernel.ll") just works; tcpuCodegenRegister() does the
 * same explicitly (for static links, or linkers that drop unused libraries).
 *
 * Environment:
 *   TCPU_CACHE_DIR      compiled-object cache (default $XDG_CACHE_HOME/tcpu or ~/.cache/tcpu)
 *   TCPU_CACHE_DISABLE  1: never read or write the cache
 *   TCPU_DUMP_DIR       write each compiled module's input IR, optimized IR and assembly there
 *   TCPU_DEBUG          1: report cache decisions and compile times on stderr
 */
#ifndef TCPU_CODEGEN_H
#define TCPU_CODEGEN_H

#include "tcpu/tcpu.h"

#ifdef __cplusplus
extern "C" {
#endif

TCPU_API tcpuResult tcpuCodegenRegister(void);

/* LLVM's version as "19.1.7", and the SLEEF version codegen was built with. */
TCPU_API const char* tcpuCodegenLlvmVersion(void);
TCPU_API const char* tcpuCodegenSleefVersion(void);

/* The target codegen compiles for by default: the host CPU's LLVM name ("znver4") and feature
 * string ("+avx2,+fma,..."), as the compile cache keys them. The strings live as long as the
 * process. TCPU_ERROR_NOT_SUPPORTED where LLVM cannot describe the host. */
TCPU_API tcpuResult tcpuCodegenHostTarget(const char** cpu, const char** features);

/* Compiles `size` bytes of LLVM IR or C++ kernel source, with tcpuModuleLoadDataEx's options, into
 * a shared object at `path` that tcpuModuleLoad loads without codegen: its kernels are exported as
 * tcpu/kernel.hpp's descriptors, and it needs the SLEEF library and the runtime this process uses
 * (run paths to their directories). Written atomically (a temporary beside `path`, then a rename),
 * so concurrent writers of one path are safe. Links with ld.lld; ELF platforms only: elsewhere, or
 * without ld.lld, TCPU_ERROR_NOT_SUPPORTED. Needs no tcpuInit. */
TCPU_API tcpuResult tcpuCodegenWriteSharedObject(const void* image, size_t size, const char* path,
                                                 unsigned int numOptions, tcpuJitOption* options,
                                                 void** optionValues);

/* Keeps the compile cache (TCPU_CACHE_DIR, else $XDG_CACHE_HOME/tcpu, else ~/.cache/tcpu) under
 * TCPU_CACHE_MAX_SIZE (default 1 GiB, 0: no limit): when tcpu's files in it take more, removes the
 * least recently used down to 90% of the limit, safely beside other processes that use the cache.
 * For programs that write files of their own into the cache (the Python front end's kernels);
 * codegen's own writes trim already. TCPU_ERROR_INVALID_VALUE when TCPU_CACHE_MAX_SIZE or
 * TCPU_CACHE_DISABLE is not valid; TCPU_SUCCESS when there is no cache or another process is
 * pruning it. Needs no tcpuInit. */
TCPU_API tcpuResult tcpuCodegenTrimCache(void);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_CODEGEN_H */
