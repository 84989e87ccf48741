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

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any incompatible change to the structs below. */
#define TCPU_KERNEL_ABI_VERSION 1u

/* Symbol prefix of a kernel's descriptor: kernel "add" -> "tcpu_kernel_desc_add". */
#define TCPU_KERNEL_DESC_PREFIX "tcpu_kernel_desc_"

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

typedef struct tcpuKernelDesc {
  uint32_t abiVersion; /* TCPU_KERNEL_ABI_VERSION; first so that any version can read it */
  uint32_t numParams;
  const char* name;
  tcpuKernelEntry entry;
  const tcpuParamDesc* params; /* numParams entries */
} tcpuKernelDesc;

#ifdef __cplusplus
}
#endif

#endif /* TCPU_KERNEL_ABI_H */
