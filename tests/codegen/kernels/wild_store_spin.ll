; wild_store, but the other programs add 1 to out[x] under a spin lock, taken in a function the
; kernel calls: codegen marks the kernel TCPU_KERNEL_PROGRAMS_WAIT (the loop that leaves when the
; compare-exchange finds the lock free, found through the call), and the runtime deals its
; programs in runs of 16.
@lock = internal global i32 0

define void @wild_store_spin(ptr %out, i32 %victim, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy,
                             i32 %gz) {
entry:
  %hit = icmp eq i32 %x, %victim
  br i1 %hit, label %crash, label %write

crash:
  store volatile i32 1, ptr inttoptr (i64 64 to ptr)
  ret void

write:
  call void @locked_bump(ptr %out, i32 %x)
  ret void
}

define internal void @locked_bump(ptr %out, i32 %x) noinline {
entry:
  br label %spin

spin:
  %pair = cmpxchg ptr @lock, i32 0, i32 1 acquire monotonic
  %taken = extractvalue { i32, i1 } %pair, 1
  br i1 %taken, label %held, label %spin

held:
  %index = zext i32 %x to i64
  %slot = getelementptr i32, ptr %out, i64 %index
  %old = load i32, ptr %slot
  %new = add i32 %old, 1
  store i32 %new, ptr %slot
  store atomic i32 0, ptr @lock release, align 4
  ret void
}
