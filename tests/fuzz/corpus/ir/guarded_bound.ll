; A mask whose bound is computed under a guard (udiv): mask versioning must not
; hoist the division in front of the loop (b = 0 with all guards false is valid).
define void @k(ptr noalias %data, ptr noalias %out, i32 %a, i32 %b, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy, i32 %gz) {
entry:
  br label %header
header:
  %i = phi i32 [0, %entry], [%i.next, %latch]
  %pd = getelementptr inbounds i32, ptr %data, i32 %i
  %g = load i32, ptr %pd
  %nz = icmp ne i32 %g, 0
  br i1 %nz, label %guarded, label %latch
guarded:
  %d = udiv i32 %a, %b
  %c = icmp ult i32 %i, %d
  br i1 %c, label %body, label %latch
body:
  %po = getelementptr inbounds i32, ptr %out, i32 %i
  store i32 1, ptr %po
  br label %latch
latch:
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 4096
  br i1 %done, label %exit, label %header
exit:
  ret void
}
