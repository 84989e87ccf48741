; A kernel that prints (device_print): the GPU backend refuses it.
declare void @tcpuKernelPrint(ptr)

define void @printer(ptr %record, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy, i32 %gz) {
  call void @tcpuKernelPrint(ptr %record)
  ret void
}
