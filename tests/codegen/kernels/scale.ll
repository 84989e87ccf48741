; out[i] = alpha * in[i] over blocks of BLOCK elements: BLOCK is meant to be a
; constexpr of the signature, n may be specialized to 1 with ":1".
define void @scale(ptr noalias %out, ptr noalias %in, float %alpha, i32 %n, i32 %block,
                   i32 %pid, i32 %py, i32 %pz, i32 %gx, i32 %gy, i32 %gz) {
entry:
  %start = mul i32 %pid, %block
  br label %check
check:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %more = icmp slt i32 %i, %block
  br i1 %more, label %loop, label %exit
loop:
  %index = add i32 %start, %i
  %inside = icmp slt i32 %index, %n
  br i1 %inside, label %body, label %latch
body:
  %wide = sext i32 %index to i64
  %pin = getelementptr inbounds float, ptr %in, i64 %wide
  %pout = getelementptr inbounds float, ptr %out, i64 %wide
  %v = load float, ptr %pin, align 4
  %s = fmul float %v, %alpha
  store float %s, ptr %pout, align 4
  br label %latch
latch:
  %next = add i32 %i, 1
  br label %check
exit:
  ret void
}
