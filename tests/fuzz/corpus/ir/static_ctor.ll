; A module with a static constructor: JIT'd objects run no initializers, so it is refused.
@table = global float 0.0
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]

define internal void @init() {
  store float 49.5, ptr @table
  ret void
}

define void @reads_table(ptr %out, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy, i32 %gz) {
  %v = load float, ptr @table
  store float %v, ptr %out
  ret void
}
