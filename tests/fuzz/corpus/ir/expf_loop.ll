; A loop of plain libm expf calls (no attributes): codegen must turn it into
; SLEEF vector calls.
declare float @expf(float)

define void @expf_loop(ptr noalias %in, ptr noalias %out, i32 %n, i32 %pid, i32 %py, i32 %pz,
                       i32 %gx, i32 %gy, i32 %gz) {
entry:
  %start = mul i32 %pid, 4096
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %index = add i32 %start, %i
  %inside = icmp slt i32 %index, %n
  br i1 %inside, label %body, label %latch
body:
  %wide = sext i32 %index to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %wide
  %pout = getelementptr inbounds float, ptr %out, i64 %wide
  %v = load float, ptr %pin, align 4
  %e = call float @expf(float %v)
  store float %e, ptr %pout, align 4
  br label %latch
latch:
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 4096
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
