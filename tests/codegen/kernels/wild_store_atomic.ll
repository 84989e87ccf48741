; wild_store, but the other programs add 1 to out[x] atomically, in a function the kernel calls:
; an atomic that only updates makes no program wait for another, so codegen sets no flag and the
; runtime deals the programs guided, as any kernel's.
define void @wild_store_atomic(ptr %out, i32 %victim, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy,
                               i32 %gz) {
entry:
  %hit = icmp eq i32 %x, %victim
  br i1 %hit, label %crash, label %write

crash:
  store volatile i32 1, ptr inttoptr (i64 64 to ptr)
  ret void

write:
  call void @bump(ptr %out, i32 %x)
  ret void
}

define internal void @bump(ptr %out, i32 %x) noinline {
  %index = zext i32 %x to i64
  %slot = getelementptr i32, ptr %out, i64 %index
  %old = atomicrmw add ptr %slot, i32 1 seq_cst
  ret void
}
