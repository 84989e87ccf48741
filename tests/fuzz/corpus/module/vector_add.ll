; Triton tutorial 01 in the grid ABI, as a front end would emit it: each
; program adds BLOCK = 1024 elements, masked at the end.
define void @add_kernel(ptr noalias %x, ptr noalias %y, ptr noalias %out, i32 %n,
                        i32 %pid, i32 %py, i32 %pz, i32 %gx, i32 %gy, i32 %gz) {
entry:
  %start = mul i32 %pid, 1024
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %index = add i32 %start, %i
  %inside = icmp slt i32 %index, %n
  br i1 %inside, label %body, label %latch

body:
  %wide = sext i32 %index to i64
  %px = getelementptr inbounds float, ptr %x, i64 %wide
  %py.addr = getelementptr inbounds float, ptr %y, i64 %wide
  %po = getelementptr inbounds float, ptr %out, i64 %wide
  %a = load float, ptr %px, align 4
  %b = load float, ptr %py.addr, align 4
  %sum = fadd float %a, %b
  store float %sum, ptr %po, align 4
  br label %latch

latch:
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 1024
  br i1 %done, label %exit, label %loop

exit:
  ret void
}
