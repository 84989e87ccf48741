declare void @llvm.aarch64.hint(i32)
define void @k(ptr %out, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy, i32 %gz) {
  call void @llvm.aarch64.hint(i32 0)
  store float 1.0, ptr %out
  ret void
}
