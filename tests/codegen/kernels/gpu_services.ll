; Kernels that use the runtime's services and a host-only hint, for the GPU compile
; (tests/codegen/compile/ptx_test.cpp): checked_store asserts (tcpuKernelAssertFail) and spins with
; x86's pause; printer prints (tcpuKernelPrint); crc uses an x86-only instruction.
%record = type { ptr, ptr, i32, ptr, [3 x i32] }

@message = private constant [7 x i8] c"i < n\00\00"
@file = private constant [9 x i8] c"kernel.c\00"
@function = private constant [14 x i8] c"checked_store\00"

declare void @tcpuKernelAssertFail(ptr)
declare void @tcpuKernelPrint(ptr)
declare void @llvm.x86.sse2.pause()
declare i32 @llvm.x86.sse42.crc32.32.32(i32, i32)

define void @checked_store(ptr %out, i32 %n, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy, i32 %gz) {
entry:
  call void @llvm.x86.sse2.pause()
  %inside = icmp slt i32 %x, %n
  br i1 %inside, label %store, label %fail

fail:
  %r = alloca %record
  %f0 = getelementptr %record, ptr %r, i32 0, i32 0
  store ptr @message, ptr %f0
  %f1 = getelementptr %record, ptr %r, i32 0, i32 1
  store ptr @file, ptr %f1
  %f2 = getelementptr %record, ptr %r, i32 0, i32 2
  store i32 7, ptr %f2
  %f3 = getelementptr %record, ptr %r, i32 0, i32 3
  store ptr @function, ptr %f3
  call void @tcpuKernelAssertFail(ptr %r)
  ret void

store:
  %index = zext i32 %x to i64
  %slot = getelementptr i32, ptr %out, i64 %index
  store i32 %x, ptr %slot
  ret void
}
