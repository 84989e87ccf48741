; A kernel with a non-C calling convention: the trampoline must call it with it.
define fastcc void @fast_kernel(ptr %out, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy, i32 %gz) noinline {
  %p = getelementptr inbounds i32, ptr %out, i32 %x
  store i32 7, ptr %p
  ret void
}
