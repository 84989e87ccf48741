/*
 * tcpu runtime C API. Modeled on the CUDA driver API so that host code written
 * for cuModuleLoad / cuLaunchKernel ports by renaming `cu` to `tcpu`.
 *
 * Conventions:
 * - Every function returns a tcpuResult; on failure, tcpuGetLastErrorDetail()
 *   on the same thread describes it (which argument, which value, which kernel).
 * - tcpuInit(0) must be called first; other calls return TCPU_ERROR_NOT_INITIALIZED.
 * - Handles are opaque ids, never dereferenced: a null, destroyed or foreign
 *   handle gives TCPU_ERROR_INVALID_HANDLE, never undefined behaviour.
 * - All functions are thread-safe.
 */
#ifndef TCPU_TCPU_H
#define TCPU_TCPU_H

#include <stddef.h>
#include <stdint.h>

#include "tcpu/export.h"
#include "tcpu/kernel_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCPU_VERSION_MAJOR 0
#define TCPU_VERSION_MINOR 1
#define TCPU_VERSION_PATCH 0

/* Result codes. Values follow CUresult where a CUDA counterpart exists. */
typedef enum tcpuResult {
  TCPU_SUCCESS = 0,
  TCPU_ERROR_INVALID_VALUE = 1,
  TCPU_ERROR_OUT_OF_MEMORY = 2,
  TCPU_ERROR_NOT_INITIALIZED = 3,
  TCPU_ERROR_NO_DEVICE = 100,
  TCPU_ERROR_INVALID_DEVICE = 101,
  TCPU_ERROR_INVALID_IMAGE = 200,
  TCPU_ERROR_INVALID_CONTEXT = 201, /* a destroyed context, or an object of another context */
  TCPU_ERROR_INVALID_SOURCE = 300,
  TCPU_ERROR_FILE_NOT_FOUND = 301,
  TCPU_ERROR_OPERATING_SYSTEM = 304,
  TCPU_ERROR_INVALID_HANDLE = 400,
  TCPU_ERROR_NOT_FOUND = 500,
  TCPU_ERROR_NOT_READY = 600,
  TCPU_ERROR_NOT_PERMITTED = 800,
  /* a bounds-checked kernel (TCPU_JIT_CHECK_BOUNDS) accessed memory outside a buffer; the
     access was skipped */
  TCPU_ERROR_ILLEGAL_ADDRESS = 700,
  TCPU_ERROR_ASSERT = 710, /* a kernel's device_assert failed */
  TCPU_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
  TCPU_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
  TCPU_ERROR_LAUNCH_FAILED = 719,
  TCPU_ERROR_NOT_SUPPORTED = 801,
  TCPU_ERROR_UNKNOWN = 999,
  /* tcpu's own: the launch's cancel flag was raised (TCPU_LAUNCH_PARAM_CANCEL_FLAG); programs
     not yet started were skipped, running ones stopped at a loop back-edge */
  TCPU_ERROR_CANCELLED = 1000,
  /* Gives the enum an int range, so any int a C caller passes is a valid value to check. */
  TCPU_RESULT_MAX_ENUM = 0x7fffffff
} tcpuResult;

TCPU_API tcpuResult tcpuGetErrorName(tcpuResult error, const char** pStr);
TCPU_API tcpuResult tcpuGetErrorString(tcpuResult error, const char** pStr);
/* The detail message of the last failed call on this thread ("" if none). Valid
 * until the next failing call on this thread. Successful calls leave it alone. */
TCPU_API const char* tcpuGetLastErrorDetail(void);

/* ---- Initialization and version ---------------------------------------- */

/* flags must be 0. Reads TCPU_NUM_THREADS / OMP_NUM_THREADS and TCPU_SCHEDULE
 * ("static", "dynamic", "guided", optionally ",<chunk>"); a malformed value is
 * an error naming the variable. Calling it again is harmless. */
TCPU_API tcpuResult tcpuInit(unsigned int flags);
/* The runtime version as major*1000 + minor*10 + patch, as cuDriverGetVersion. */
TCPU_API tcpuResult tcpuDriverGetVersion(int* version);

/* ---- Device (the host CPU) ------------------------------------------------ */

typedef int tcpuDevice;

typedef enum tcpuDeviceAttribute {
  TCPU_DEVICE_ATTRIBUTE_NUM_CORES = 1,         /* logical processors available to this process */
  TCPU_DEVICE_ATTRIBUTE_NUM_THREADS = 2,       /* worker threads a launch uses now */
  TCPU_DEVICE_ATTRIBUTE_VECTOR_BITS = 3,       /* widest SIMD register: 512, 256 or 128 */
  TCPU_DEVICE_ATTRIBUTE_MAX_SCRATCH_BYTES = 4, /* largest sharedMemBytes a launch accepts */
  TCPU_DEVICE_ATTRIBUTE_MAX_ENUM = 0x7fffffff
} tcpuDeviceAttribute;

TCPU_API tcpuResult tcpuDeviceGetCount(int* count); /* always 1: the host */
TCPU_API tcpuResult tcpuDeviceGet(tcpuDevice* device, int ordinal);
/* CPU model name, e.g. "Intel(R) Xeon(R) ...". */
TCPU_API tcpuResult tcpuDeviceGetName(char* name, int len, tcpuDevice dev);
/* Space-separated ISA features relevant to code generation, e.g. "avx2 fma avx512f". */
TCPU_API tcpuResult tcpuDeviceGetFeatures(char* features, int len, tcpuDevice dev);
TCPU_API tcpuResult tcpuDeviceGetAttribute(int* value, tcpuDeviceAttribute attrib, tcpuDevice dev);

/* ---- Contexts ------------------------------------------------------------ */

/* A context is where modules, functions, streams, events and memory live, as in the CUDA driver
 * API. Each thread has a current context; until it sets one it is the CPU context, so code that
 * never creates a context runs on the CPU as before. Host code written once runs on either
 * backend by choosing the context:
 *
 *   tcpuContext gpu;
 *   tcpuCtxCreate(&gpu, TCPU_BACKEND_CUDA, 0);   // now current on this thread
 *   tcpuModuleLoad(&m, "softmax.ptx");           // `tcpu ptx` output
 *   tcpuMemAlloc(&x, bytes);                     // cuMemAlloc
 *   tcpuLaunchKernel(f, ...);                    // cuLaunchKernel, one CUDA block per program
 *
 * On a CUDA context: modules are PTX or cubins; a launch on the null stream waits for the kernel
 * and returns its errors, as on the CPU; block dimensions are the kernel's own where its PTX
 * fixes them (.reqntid, or .maxntid 1,1,1 as tl kernels declare), else the caller's; CUDA's
 * errors come back as tcpuResult with CUDA's name and text in the detail. Using an object of one
 * context while another is current is TCPU_ERROR_INVALID_CONTEXT. */
typedef struct tcpuContext_st* tcpuContext;

typedef enum tcpuBackend {
  TCPU_BACKEND_CPU = 1,  /* the host's cores, through OpenMP */
  TCPU_BACKEND_CUDA = 2, /* an NVIDIA GPU, through libcuda.so.1 loaded at run time */
  TCPU_BACKEND_MAX_ENUM = 0x7fffffff
} tcpuBackend;

/* Creates a context on `ordinal` of the backend and makes it current on this thread. `backends`
 * is one backend, or TCPU_BACKEND_CPU | TCPU_BACKEND_CUDA for the GPU where there is one and the
 * CPU otherwise (ask tcpuCtxGetBackend which). CUDA without a driver or GPU is
 * TCPU_ERROR_NO_DEVICE saying why; an ordinal the backend lacks is TCPU_ERROR_INVALID_DEVICE.
 * Every CPU context shares the process's one CPU state (as CUDA's primary context); a CUDA
 * context retains the GPU's primary context, so it shares the GPU with PyTorch or CuPy. */
TCPU_API tcpuResult tcpuCtxCreate(tcpuContext* ctx, unsigned int backends, int ordinal);
/* Waits for its work, then releases everything created in it (a CUDA context's modules, memory,
 * streams, events). Threads where it was current are back on the CPU context. */
TCPU_API tcpuResult tcpuCtxDestroy(tcpuContext ctx);
/* NULL makes the CPU context current. */
TCPU_API tcpuResult tcpuCtxSetCurrent(tcpuContext ctx);
/* NULL while the CPU context is current and none was set. */
TCPU_API tcpuResult tcpuCtxGetCurrent(tcpuContext* ctx);
/* ctx NULL: the CPU context. */
TCPU_API tcpuResult tcpuCtxGetBackend(tcpuBackend* backend, tcpuContext ctx);
/* What the context runs on, e.g. "CUDA device 0 (NVIDIA H100 80GB HBM3, sm_90, driver API 13.0)"
 * or "CPU (AMD EPYC ...)". ctx NULL: the CPU context. */
TCPU_API tcpuResult tcpuCtxGetName(char* name, int len, tcpuContext ctx);
/* Waits for all work of the current context. */
TCPU_API tcpuResult tcpuCtxSynchronize(void);

/* ---- Launch settings ------------------------------------------------------ */

typedef enum tcpuSchedule {
  TCPU_SCHEDULE_STATIC = 0,  /* contiguous equal ranges (chunk 0), or round-robin chunks */
  TCPU_SCHEDULE_DYNAMIC = 1, /* workers take runs of `chunk` programs in launch order, each one
                                entry call (chunk 0 means 1) */
  TCPU_SCHEDULE_GUIDED = 2,  /* shrinking ranges, at least `chunk` programs (0 means 1); the
                                default, with chunk 0 */
  TCPU_SCHEDULE_DEFAULT = 3, /* tcpuSetSchedule only: back to the default (TCPU_SCHEDULE, else
                                guided; dynamic,16 for kernels whose programs wait) */
  TCPU_SCHEDULE_MAX_ENUM = 0x7fffffff
} tcpuSchedule;

/* Worker threads per launch. numThreads >= 1; 0 restores the default
 * (TCPU_NUM_THREADS, else OMP_NUM_THREADS, else all cores). */
TCPU_API tcpuResult tcpuSetNumThreads(int numThreads);
TCPU_API tcpuResult tcpuGetNumThreads(int* numThreads);
/* A schedule set here applies to every kernel. Until one is (and without TCPU_SCHEDULE), the
 * programs of a kernel whose programs wait for each other (TCPU_KERNEL_PROGRAMS_WAIT) run
 * dynamic,16, those of others guided; tcpuGetSchedule reports the latter. */
TCPU_API tcpuResult tcpuSetSchedule(tcpuSchedule schedule, unsigned int chunk);
TCPU_API tcpuResult tcpuGetSchedule(tcpuSchedule* schedule, unsigned int* chunk);

typedef struct tcpuLaunchHookInfo {
  const char* kernelName;
  uint32_t grid[3];
  int numThreads;
  struct tcpuStream_st* stream; /* the stream it was launched on (NULL: the null stream) */
  uint64_t durationNs;          /* exit hook only: wall time of the grid */
} tcpuLaunchHookInfo;

typedef void (*tcpuLaunchHook)(const tcpuLaunchHookInfo* info, void* userData);

/* Called on the thread that runs the grid, right before it starts and right
 * after it ends (as Triton's launch_enter_hook / launch_exit_hook). Either may
 * be NULL; passing both NULL removes the hooks. A launch uses the hooks set
 * when it was launched, so userData must stay valid until launches queued
 * before a change have finished; hooks may run on several threads at once. */
TCPU_API tcpuResult tcpuSetLaunchHooks(tcpuLaunchHook enter, tcpuLaunchHook exit, void* userData);

/* ---- Modules and functions ------------------------------------------------ */

typedef struct tcpuModule_st* tcpuModule;
typedef struct tcpuFunction_st* tcpuFunction;

/* Loads a module from a file. The runtime itself loads shared objects of
 * precompiled kernels (see tcpu/kernel.hpp); other formats (LLVM IR, kernel
 * source) load once a library that registers a loader is linked (tcpu_codegen). */
TCPU_API tcpuResult tcpuModuleLoad(tcpuModule* module, const char* fname);
/* The same from memory: `size` bytes of a shared object or of another
 * registered format. */
TCPU_API tcpuResult tcpuModuleLoadData(tcpuModule* module, const void* image, size_t size);
/* A module of kernels whose code is already linked into the program: the objects
 * `tcpu compile` writes (their load_* functions call this), or TCPU_EXPORT_KERNEL
 * descriptors in a static build. `kernels` holds `count` descriptors with distinct
 * names; they, and what they point to, must stay valid until the module is unloaded. */
TCPU_API tcpuResult tcpuModuleLoadKernels(tcpuModule* module, const tcpuKernelDesc* const* kernels,
                                          unsigned int count);
/* Options for loaders that compile (tcpuModuleLoadEx / tcpuModuleLoadDataEx), as
 * CUDA's CUjit_option. Each value is passed as a void*: strings as const char*,
 * numbers as (void*)(uintptr_t)n. */
typedef enum tcpuJitOption {
  /* const char*: the kernel TCPU_JIT_SIGNATURE applies to (default: the module's only kernel). */
  TCPU_JIT_KERNEL_NAME = 1,
  /* const char*: Triton signature, e.g. "*fp32:16, *fp32:16, *fp32:16, i32, 1024": element
   * types, hints (:16 aligned/divisible, :1 equal to 1), and constexpr values bound at compile
   * time. */
  TCPU_JIT_SIGNATURE = 2,
  /* 0 or 1: fuse a*b+c into FMA (Triton's enable_fp_fusion). Default 1; 0 for bit-for-bit checks.
   */
  TCPU_JIT_FP_CONTRACT = 3,
  /* 0 or 1: allow fast-math rewrites (reassociation, no NaN/Inf). Default 0: exact. */
  TCPU_JIT_FAST_MATH = 4,
  /* 10 (1.0 ULP, default) or 35 (3.5 ULP): accuracy of the SLEEF math functions used. */
  TCPU_JIT_MATH_ULP = 5,
  /* const char*: LLVM CPU name to compile for (e.g. "x86-64-v3"); default: the host CPU. */
  TCPU_JIT_TARGET_CPU = 6,
  /* 0 or 1: use the persistent compile cache for this load. Default 1 (TCPU_CACHE_DISABLE=1 turns
     it off). */
  TCPU_JIT_CACHE = 7,
  /* 0 or 1: bounds-check the kernels' loads and stores (the CPU analog of compute-sanitizer's
   * memcheck). An access through a pointer parameter into a buffer of tcpuMemAlloc or
   * tcpuMemHostRegister that leaves that buffer is skipped (a load gives zeros) and the launch
   * returns TCPU_ERROR_ILLEGAL_ADDRESS naming the program, parameter, offset and buffer size.
   * Default 0, or 1 when the environment has TCPU_CHECK=bounds. */
  TCPU_JIT_CHECK_BOUNDS = 8,
  TCPU_JIT_MAX_ENUM = 0x7fffffff
} tcpuJitOption;

TCPU_API tcpuResult tcpuModuleLoadEx(tcpuModule* module, const char* fname, unsigned int numOptions,
                                     tcpuJitOption* options, void** optionValues);
TCPU_API tcpuResult tcpuModuleLoadDataEx(tcpuModule* module, const void* image, size_t size,
                                         unsigned int numOptions, tcpuJitOption* options,
                                         void** optionValues);

/* Texts a compiled module can show (the CPU analog of Triton's kernel dumps). */
typedef enum tcpuModuleText {
  TCPU_MODULE_TEXT_INPUT_IR = 0,     /* the LLVM IR as loaded */
  TCPU_MODULE_TEXT_OPTIMIZED_IR = 1, /* after specialization, trampolines and optimization */
  TCPU_MODULE_TEXT_ASSEMBLY = 2,     /* native assembly for the target CPU */
  TCPU_MODULE_TEXT_MAX_ENUM = 0x7fffffff
} tcpuModuleText;

/* The text stays valid until the module is unloaded. TCPU_ERROR_NOT_SUPPORTED for
 * formats that have none (precompiled shared objects). */
TCPU_API tcpuResult tcpuModuleGetText(const char** text, tcpuModule module, tcpuModuleText kind);

/* Unloads; its functions become invalid. Launches already queued on streams
 * still complete (they keep the code alive). */
TCPU_API tcpuResult tcpuModuleUnload(tcpuModule module);
TCPU_API tcpuResult tcpuModuleGetFunction(tcpuFunction* function, tcpuModule module,
                                          const char* name);

TCPU_API tcpuResult tcpuFuncGetName(const char** name, tcpuFunction function);
TCPU_API tcpuResult tcpuFuncGetParamCount(unsigned int* count, tcpuFunction function);
/* The kernel descriptor's flags (TCPU_KERNEL_PROGRAMS_WAIT, kernel_abi.h): what codegen found in
 * the kernel, or what a C++ kernel exported; 0 for a descriptor of ABI v1. */
TCPU_API tcpuResult tcpuFuncGetFlags(unsigned int* flags, tcpuFunction function);
/* Describes parameter `index` (the name pointer lives as long as the module). */
TCPU_API tcpuResult tcpuFuncGetParamInfo(tcpuParamDesc* info, tcpuFunction function,
                                         unsigned int index);
/* Short name of a data type: "i32", "fp16", "ptr", ... */
TCPU_API const char* tcpuDataTypeName(tcpuDataType type);

/* ---- Streams and events --------------------------------------------------- */

typedef struct tcpuStream_st* tcpuStream;
typedef struct tcpuEvent_st* tcpuEvent;

typedef enum tcpuStreamFlags {
  TCPU_STREAM_DEFAULT = 0,     /* the null stream waits for this stream's earlier work */
  TCPU_STREAM_NON_BLOCKING = 1 /* no implicit wait with the null stream */
} tcpuStreamFlags;

/* Work on a created stream runs asynchronously, in order, on a worker of its
 * own. NULL is the null stream: synchronous, and (as CUDA's legacy default
 * stream) it first waits for all work on streams created without
 * TCPU_STREAM_NON_BLOCKING.
 * Work running on a stream (a launch hook, a kernel) must not wait for or
 * destroy that stream: such calls return TCPU_ERROR_NOT_PERMITTED, as CUDA's
 * do inside stream callbacks. */
TCPU_API tcpuResult tcpuStreamCreate(tcpuStream* stream, unsigned int flags);
/* Waits for the stream's work to finish, then destroys it. */
TCPU_API tcpuResult tcpuStreamDestroy(tcpuStream stream);
/* Waits for its work. Returns the first error of that work, if any, once;
 * the stream stays usable. */
TCPU_API tcpuResult tcpuStreamSynchronize(tcpuStream stream);
/* TCPU_SUCCESS if all its work is done, TCPU_ERROR_NOT_READY if not. */
TCPU_API tcpuResult tcpuStreamQuery(tcpuStream stream);

typedef enum tcpuEventFlags {
  TCPU_EVENT_DEFAULT = 0,
  TCPU_EVENT_BLOCKING_SYNC = 1, /* accepted; waiting always blocks on the CPU */
  TCPU_EVENT_DISABLE_TIMING = 2 /* tcpuEventElapsedTime on it is TCPU_ERROR_INVALID_HANDLE */
} tcpuEventFlags;

TCPU_API tcpuResult tcpuEventCreate(tcpuEvent* event, unsigned int flags);
TCPU_API tcpuResult tcpuEventRecord(tcpuEvent event, tcpuStream stream);
TCPU_API tcpuResult tcpuEventQuery(tcpuEvent event);
TCPU_API tcpuResult tcpuEventSynchronize(tcpuEvent event);
/* Milliseconds between two completed records. TCPU_ERROR_NOT_READY if either is
 * still pending; TCPU_ERROR_INVALID_HANDLE if either was never recorded. */
TCPU_API tcpuResult tcpuEventElapsedTime(float* milliseconds, tcpuEvent start, tcpuEvent end);
TCPU_API tcpuResult tcpuEventDestroy(tcpuEvent event);
/* Work queued on `stream` after this call waits until the event's latest record (made before
 * this call) completes, as cuStreamWaitEvent; an event never recorded is no wait. On the null
 * stream the calling thread waits. `flags` must be 0. */
TCPU_API tcpuResult tcpuStreamWaitEvent(tcpuStream stream, tcpuEvent event, unsigned int flags);

/* ---- Launch --------------------------------------------------------------- */

/* Keys of the `extra` array of tcpuLaunchKernel, ended by TCPU_LAUNCH_PARAM_END. */
#define TCPU_LAUNCH_PARAM_END ((void*)0x00)
/* CUDA's packed form: the next entry points to a buffer holding all parameter
 * values, each at its natural alignment. Replaces kernelParams. */
#define TCPU_LAUNCH_PARAM_BUFFER_POINTER ((void*)0x01)
/* The next entry points to a size_t holding that buffer's size. */
#define TCPU_LAUNCH_PARAM_BUFFER_SIZE ((void*)0x02)
/* tcpu's own: the next entry is the number of parameters passed, as (void*)(uintptr_t)n;
 * a mismatch with the kernel's count is an error instead of a wrong read. */
#define TCPU_LAUNCH_PARAM_COUNT ((void*)0x100)
/* tcpu's own: the next entry is the number of worker threads for this launch only, as
 * (void*)(uintptr_t)n with n >= 1 (ahead-of-time kernels compiled with --num-threads use it). */
#define TCPU_LAUNCH_PARAM_NUM_THREADS ((void*)0x101)
/* tcpu's own: the next entry is a tcpuCancelFlag* that can cancel this launch (below). */
#define TCPU_LAUNCH_PARAM_CANCEL_FLAG ((void*)0x102)

/* Cancels launches from another thread or a signal handler (Ctrl-C). Zero-initialize it, pass
 * it with TCPU_LAUNCH_PARAM_CANCEL_FLAG, and change it only through the two calls below (the
 * runtime counts raised flags, so that kernels look at their launch's flag only while some flag
 * is raised). Once raised, the launch skips the programs it has not started, its running
 * programs stop at their next loop back-edge (kernels compiled by this version of codegen
 * check there), and it returns TCPU_ERROR_CANCELLED; so does a launch whose flag is raised
 * before it starts or while it ends. A flag may serve many launches, one after the other or at
 * once; on a stream it must live until the launch has run. */
typedef struct tcpuCancelFlag {
  int state; /* nonzero: raised */
} tcpuCancelFlag;
/* Raises the flag; raising a raised flag does nothing. Async-signal-safe (lock-free atomics
 * only), so a SIGINT handler may call it. */
TCPU_API void tcpuCancelFlagRaise(tcpuCancelFlag* flag);
/* Lowers the flag, so that its next launch runs. Async-signal-safe. */
TCPU_API void tcpuCancelFlagLower(tcpuCancelFlag* flag);

/* Largest sharedMemBytes accepted. */
#define TCPU_MAX_SCRATCH_BYTES (64u << 20)

/*
 * Runs the kernel once for every (x, y, z) of gridX x gridY x gridZ, as
 * cuLaunchKernel (same parameter list). On the CPU:
 * - gridX*gridY*gridZ programs run, each exactly once, on the configured worker
 *   threads; the grid may exceed 2^32 programs; a zero dimension is a no-op.
 * - blockDimX/Y/Z are accepted and ignored (a program is one thread using SIMD;
 *   Triton's 32*num_warps has no CPU meaning), but must be >= 1.
 * - sharedMemBytes (<= TCPU_MAX_SCRATCH_BYTES) is a per-program scratch area,
 *   64-byte aligned, contents undefined at program start (tcpuLaunchFrame.scratch).
 * - kernelParams[i] points to the value of parameter i; values are copied at
 *   launch, so they may change once the call returns.
 */
TCPU_API tcpuResult tcpuLaunchKernel(tcpuFunction f, unsigned int gridDimX, unsigned int gridDimY,
                                     unsigned int gridDimZ, unsigned int blockDimX,
                                     unsigned int blockDimY, unsigned int blockDimZ,
                                     unsigned int sharedMemBytes, tcpuStream hStream,
                                     void** kernelParams, void** extra);

/* ---- Memory (host memory, 64-byte aligned) -------------------------------- */

typedef uint64_t tcpuDeviceptr;

TCPU_API tcpuResult tcpuMemAlloc(tcpuDeviceptr* dptr, size_t bytesize);

/* Flags of tcpuMemAllocEx (named as CUDA's CU_MEMHOSTALLOC_* flags of cuMemHostAlloc). */
#define TCPU_MEMALLOC_DEFAULT 0x00
/* The allocation ends at a guard page that faults on any access, so that a kernel running off
 * the end of the buffer dies at its first access past it, with the crash report naming the kernel
 * and program, instead of corrupting other memory (a GPU's "illegal address"). The data stays
 * 64-byte aligned, so an overrun smaller than the padding to 64 bytes is not caught, nor is an
 * access before the start; each allocation takes whole pages and a mapping of its own.
 * TCPU_MEM_GUARD=1 in the environment (read by tcpuInit) guards every allocation. On a CUDA
 * context the flag is accepted and changes nothing: the GPU faults at the kernel already. */
#define TCPU_MEMALLOC_GUARD 0x01
/* tcpuMemAlloc with flags: TCPU_MEMALLOC_DEFAULT or TCPU_MEMALLOC_GUARD; other bits are
 * TCPU_ERROR_INVALID_VALUE. */
TCPU_API tcpuResult tcpuMemAllocEx(tcpuDeviceptr* dptr, size_t bytesize, unsigned int flags);
/* Waits for all streams' work first (the memory may be in use). */
TCPU_API tcpuResult tcpuMemFree(tcpuDeviceptr dptr);
/* Copies and sets run on the null stream. The device side must lie inside one
 * tcpuMemAlloc allocation. */
TCPU_API tcpuResult tcpuMemcpyHtoD(tcpuDeviceptr dstDevice, const void* srcHost, size_t byteCount);
TCPU_API tcpuResult tcpuMemcpyDtoH(void* dstHost, tcpuDeviceptr srcDevice, size_t byteCount);
TCPU_API tcpuResult tcpuMemcpyDtoD(tcpuDeviceptr dstDevice, tcpuDeviceptr srcDevice,
                                   size_t byteCount);
/* HtoDAsync reads srcHost before it returns (as CUDA does for pageable memory);
 * DtoHAsync writes dstHost when the stream reaches it. */
TCPU_API tcpuResult tcpuMemcpyHtoDAsync(tcpuDeviceptr dstDevice, const void* srcHost,
                                        size_t byteCount, tcpuStream hStream);
TCPU_API tcpuResult tcpuMemcpyDtoHAsync(void* dstHost, tcpuDeviceptr srcDevice, size_t byteCount,
                                        tcpuStream hStream);
TCPU_API tcpuResult tcpuMemsetD8(tcpuDeviceptr dstDevice, unsigned char uc, size_t n);
TCPU_API tcpuResult tcpuMemsetD32(tcpuDeviceptr dstDevice, unsigned int ui, size_t n);

/* Accepted for porting from cuMemHostRegister; they change nothing on the CPU. */
#define TCPU_MEMHOSTREGISTER_PORTABLE 0x01
#define TCPU_MEMHOSTREGISTER_DEVICEMAP 0x02

/* Makes [p, p + bytesize) of host memory (a std::vector's storage, malloc'd memory) a buffer
 * that bounds-checked kernels (TCPU_JIT_CHECK_BOUNDS) check accesses against, as they do for
 * tcpuMemAlloc buffers; pointers into unregistered host memory are not checked. The range must
 * not overlap an allocation or another registered range
 * (TCPU_ERROR_HOST_MEMORY_ALREADY_REGISTERED). Unregister before freeing the memory. */
TCPU_API tcpuResult tcpuMemHostRegister(void* p, size_t bytesize, unsigned int flags);
/* p must be the start of a registered range (else TCPU_ERROR_HOST_MEMORY_NOT_REGISTERED). */
TCPU_API tcpuResult tcpuMemHostUnregister(void* p);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_TCPU_H */
