; A kernel with an x86-only instruction: the GPU backend refuses it.
declare i32 @llvm.x86.sse42.crc32.32.32(i32, i32)

define void @crc(ptr %out, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy, i32 %gz) {
  %c = call i32 @llvm.x86.sse42.crc32.32.32(i32 %x, i32 %y)
  store i32 %c, ptr %out
  ret void
}
