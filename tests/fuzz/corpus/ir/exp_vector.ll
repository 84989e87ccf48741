; Each program computes exp over one block of 16 floats with the vector intrinsic.
declare <16 x float> @llvm.exp.v16f32(<16 x float>)

define void @exp_block(ptr %in, ptr %out, i32 %pid, i32 %py, i32 %pz, i32 %gx, i32 %gy, i32 %gz) {
  %start = mul i32 %pid, 16
  %wide = zext i32 %start to i64
  %pin = getelementptr float, ptr %in, i64 %wide
  %pout = getelementptr float, ptr %out, i64 %wide
  %v = load <16 x float>, ptr %pin, align 4
  %e = call <16 x float> @llvm.exp.v16f32(<16 x float> %v)
  store <16 x float> %e, ptr %pout, align 4
  ret void
}
