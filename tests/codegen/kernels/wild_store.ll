; Program x == %victim stores through a wild pointer (address 64); the others write 1 to
; out[x]. For the crash report of a JIT-compiled kernel.
define void @wild_store(ptr %out, i32 %victim, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy,
                        i32 %gz) {
entry:
  %hit = icmp eq i32 %x, %victim
  br i1 %hit, label %crash, label %write

crash:
  store volatile i32 1, ptr inttoptr (i64 64 to ptr)
  ret void

write:
  %index = zext i32 %x to i64
  %slot = getelementptr i32, ptr %out, i64 %index
  store i32 1, ptr %slot
  ret void
}
