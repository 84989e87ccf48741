/*
 * tcpu kernel ABI: what a compiled kernel module exports so that the runtime
 * can find and launch its kernels. Plain C; shared by kernel modules, loaders
 * and the runtime.
 *
 * A kernel is `void k(params..., uint32_t x, uint32_t y, uint32_t z,
 *                     uint32_t gridX, uint32_t gridY, uint32_t gridZ)`
 * (triton-cpu's ABI). The runtime never calls it directly: beside each kernel
 * sits an entry trampoline of one uniform shape, `tcpuKernelEntry`, that
 * unpacks the parameters once and runs a contiguous range of programs. So no
 * launcher has to be compiled per signature, and the program loop is
 * optimized together with the kernel body.
 *
 * A module exports, per kernel, a `tcpuKernelDesc` named
 * TCPU_KERNEL_DESC_PREFIX + kernel name, with default visibility.
 */
#ifndef TCPU_KERNEL_ABI_H
#define TCPU_KERNEL_ABI_H

#include <stdint.h>

#include "tcpu/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any change to the structs below. v2 added tcpuKernelDesc.flags; the runtime still
 * reads v1 descriptors (their kernels have no flags). */
#define TCPU_KERNEL_ABI_VERSION 2u
#define TCPU_KERNEL_ABI_OLDEST_READ 1u

/* Symbol prefix of a kernel's descriptor: kernel "add" -> "tcpu_kernel_desc_add". */
#define TCPU_KERNEL_DESC_PREFIX "tcpu_kernel_desc_"

/* A C++ kernel names its ABI function by defining a pointer to it named
 * TCPU_KERNEL_TAG_PREFIX + kernel name (tl's TL_KERNEL does); codegen gives the
 * function that name and drops the pointer. */
#define TCPU_KERNEL_TAG_PREFIX "tcpu_tl_kernel_"

/* Beside the tag, TCPU_KERNEL_TYPES_PREFIX + kernel name holds the C++ parameters' types:
 * { uint32 count; uint32 codes[count] }, each code a tcpuDataType, and for TCPU_TYPE_PTR the
 * element's tcpuDataType in bits 8-15. Codegen takes the parameters' element types (and
 * signedness) from it when no signature gives them, and drops it. */
#define TCPU_KERNEL_TYPES_PREFIX "tcpu_tl_types_"

/* Scalar and element types, named as in Triton's signatures. */
typedef enum tcpuDataType {
  TCPU_TYPE_UNKNOWN = 0,
  TCPU_TYPE_I1 = 1,
  TCPU_TYPE_I8 = 2,
  TCPU_TYPE_I16 = 3,
  TCPU_TYPE_I32 = 4,
  TCPU_TYPE_I64 = 5,
  TCPU_TYPE_U8 = 6,
  TCPU_TYPE_U16 = 7,
  TCPU_TYPE_U32 = 8,
  TCPU_TYPE_U64 = 9,
  TCPU_TYPE_FP16 = 10,
  TCPU_TYPE_BF16 = 11,
  TCPU_TYPE_FP32 = 12,
  TCPU_TYPE_FP64 = 13,
  TCPU_TYPE_PTR = 14, /* a pointer; its element type is tcpuParamDesc.pointee */
  TCPU_TYPE_MAX_ENUM = 0x7fffffff
} tcpuDataType;

/* One kernel parameter as the ABI passes it. */
typedef struct tcpuParamDesc {
  uint32_t type;    /* tcpuDataType of the value passed */
  uint32_t pointee; /* for TCPU_TYPE_PTR: element type, or TCPU_TYPE_UNKNOWN */
  uint32_t size;    /* bytes of the value passed (what kernelParams[i] points to) */
  uint32_t align;   /* its alignment in bytes */
  const char* name; /* parameter name, or NULL when the producer does not know it */
} tcpuParamDesc;

/* What the runtime hands every entry call. */
typedef struct tcpuLaunchFrame {
  uint32_t grid[3];      /* gridX, gridY, gridZ */
  uint32_t reserved;     /* zero */
  void* scratch;         /* per-program scratch (sharedMemBytes), or NULL */
  uint64_t scratchBytes; /* its size; reused by the programs of one worker, contents undefined */
} tcpuLaunchFrame;

/*
 * Runs programs [begin, end) of the linearized grid, where the linear index
 * of (x, y, z) is x + gridX * (y + gridY * z). params[i] points to the value
 * of parameter i, as in cuLaunchKernel's kernelParams.
 */
typedef void (*tcpuKernelEntry)(void* const* params, uint64_t begin, uint64_t end,
                                const tcpuLaunchFrame* frame);

/* tcpuKernelDesc.flags. TCPU_KERNEL_PROGRAMS_WAIT: the kernel's programs may wait for each other
 * through memory: a loop that runs until an atomic or volatile read sees another program's
 * write (a spin lock, a turn, a count). Unless a schedule was chosen (tcpuSetSchedule,
 * TCPU_SCHEDULE), such a kernel's programs are dealt in launch order, in runs of a few programs,
 * as a GPU runs them at once: see docs/c-api.md. Atomics that only update (a histogram, a sum)
 * do not make programs wait. */
#define TCPU_KERNEL_PROGRAMS_WAIT 0x1u

typedef struct tcpuKernelDesc {
  uint32_t abiVersion; /* TCPU_KERNEL_ABI_VERSION; first so that any version can read it */
  uint32_t numParams;
  const char* name;
  tcpuKernelEntry entry;
  const tcpuParamDesc* params; /* numParams entries */
  uint32_t flags;              /* TCPU_KERNEL_* bits; since v2 */
} tcpuKernelDesc;

/*
 * Services the runtime gives kernels (libtcpu_runtime exports them; JIT'd
 * kernels resolve them from the process). The tl kernel language calls them
 * for device_print and device_assert.
 */

/* One device_print call: a scalar or a block of 1 or 2 dimensions. */
typedef struct tcpuPrintRecord {
  const char* prefix;    /* text before the values, as tl.device_print's prefix */
  uint32_t programId[3]; /* the printing program */
  uint32_t type;         /* tcpuDataType of the values */
  uint32_t rank;         /* 0 (scalar), 1 or 2 */
  uint32_t shape[2];     /* rank 1: shape[0] elements; rank 2: shape[0] x shape[1] */
  const void* values;    /* row-major */
  uint32_t hex;          /* nonzero: integers in hexadecimal */
} tcpuPrintRecord;

/* A failed device_assert. */
typedef struct tcpuAssertRecord {
  const char* message;
  const char* file;
  uint32_t line;
  const char* function;
  uint32_t programId[3];
} tcpuAssertRecord;

/* Prints one line per element, "pid (x, y, z) idx (i, j) prefix: value", all
 * lines of one call together (never interleaved with another call's). */
TCPU_API void tcpuKernelPrint(const tcpuPrintRecord* record);

/* Records the failure: the launch that runs this program returns
 * TCPU_ERROR_ASSERT with the message, file, line and program ids (the first
 * failure wins). Outside a launch, the failure is written to stderr. The
 * process goes on. */
TCPU_API void tcpuKernelAssertFail(const tcpuAssertRecord* record);

/*
 * Atomics (tl.atomic_*): every atomic update is a critical section on the stripe of memory its
 * address falls in (TCPU_ATOMIC_STRIPE_BYTES bytes, aligned), guarded by one lock word of
 * tcpuKernelAtomicLocks: word (address / TCPU_ATOMIC_STRIPE_BYTES % TCPU_ATOMIC_STRIPES) *
 * TCPU_ATOMIC_LOCK_STRIDE, 0 when free. One table per process, so that kernels of different
 * modules and launches agree; memory shared with another process is not covered. A kernel takes
 * a free lock itself (one compare-and-swap, acquire) and calls tcpuKernelAtomicWait only when it
 * finds the lock taken; it frees it by storing 0 (release).
 */
#define TCPU_ATOMIC_STRIPE_BYTES 1024u
#define TCPU_ATOMIC_STRIPES 4096u
#define TCPU_ATOMIC_LOCK_STRIDE 16u /* lock words 64 bytes apart: one cache line each */
TCPU_API extern uint32_t tcpuKernelAtomicLocks[TCPU_ATOMIC_STRIPES * TCPU_ATOMIC_LOCK_STRIDE];

/* Waits until *lock is free, then takes it (acquire). */
TCPU_API void tcpuKernelAtomicWait(uint32_t* lock);

/*
 * Bounds checking (codegen's TCPU_JIT_CHECK_BOUNDS): checked kernels call these.
 */

/* The buffer a pointer points into. */
typedef struct tcpuBufferExtent {
  uint64_t start; /* its first byte's address */
  uint64_t size;  /* its size in bytes */
} tcpuBufferExtent;

typedef enum tcpuAccessKind {
  TCPU_ACCESS_LOAD = 0,
  TCPU_ACCESS_STORE = 1,
  TCPU_ACCESS_ATOMIC = 2, /* a read-modify-write */
  TCPU_ACCESS_KIND_MAX_ENUM = 0x7fffffff
} tcpuAccessKind;

/* An access a checked kernel skipped because it left its buffer. */
typedef struct tcpuAccessRecord {
  uint32_t param;         /* the kernel parameter (launch order) the address derives from */
  uint32_t kind;          /* tcpuAccessKind */
  uint32_t throughMemory; /* nonzero: the pointer was read from memory that parameter points to */
  uint32_t elementType;   /* tcpuDataType of one element; TCPU_TYPE_UNKNOWN for byte copies */
  const void* base;       /* the pointer the address derives from */
  const void* address;    /* the first byte of the first element outside the buffer */
  uint64_t bytes;         /* that element's size (a copy's whole length) */
} tcpuAccessRecord;

/* Sets *extent to the tcpuMemAlloc allocation or tcpuMemHostRegister range holding `pointer`;
 * to {0, 0} (nothing in bounds) for NULL; to {0, UINT64_MAX} (everything in bounds) for other
 * pointers no buffer holds. */
TCPU_API void tcpuKernelFindBuffer(const void* pointer, tcpuBufferExtent* extent);

/* A checked kernel's program (x, y, z) starts on this thread: what a report names. */
TCPU_API void tcpuKernelEnterProgram(uint32_t x, uint32_t y, uint32_t z);

/* Records the access: the launch that runs this program returns TCPU_ERROR_ILLEGAL_ADDRESS
 * naming the kernel, program, parameter, offset and buffer size (the first failure wins).
 * Outside a launch, it is written to stderr. The process goes on. */
TCPU_API void tcpuKernelReportAccess(const tcpuAccessRecord* record);

/*
 * Cancellation (tcpuCancelFlag in tcpu.h): codegen makes every loop whose trip count it cannot
 * bound check, at its back-edge, whether the launch was cancelled, so that an endless program
 * ends too. The check costs a load and a branch: tcpuKernelCancelPending is the number of raised
 * cancel flags in the process, nearly always 0; only while it is not does the kernel ask
 * tcpuKernelCancelled whether the flag is its own launch's.
 */
TCPU_API extern int tcpuKernelCancelPending;

/* Nonzero when the launch running this program was cancelled: the kernel returns at once. */
TCPU_API int tcpuKernelCancelled(void);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_KERNEL_ABI_H */
