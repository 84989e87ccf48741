; Vector math whose width is no multiple of a power-of-two count of native
; SLEEF vectors: 12 floats and 6 doubles per program.
declare <12 x float> @llvm.exp.v12f32(<12 x float>)
declare <6 x double> @llvm.sin.v6f64(<6 x double>)

define void @odd(ptr %f, ptr %d, i32 %pid, i32 %py, i32 %pz, i32 %gx, i32 %gy, i32 %gz) {
  %fo = mul i32 %pid, 12
  %do = mul i32 %pid, 6
  %pf = getelementptr float, ptr %f, i32 %fo
  %pd = getelementptr double, ptr %d, i32 %do
  %vf = load <12 x float>, ptr %pf, align 4
  %vd = load <6 x double>, ptr %pd, align 8
  %ef = call <12 x float> @llvm.exp.v12f32(<12 x float> %vf)
  %sd = call <6 x double> @llvm.sin.v6f64(<6 x double> %vd)
  store <12 x float> %ef, ptr %pf, align 4
  store <6 x double> %sd, ptr %pd, align 8
  ret void
}
