; One kernel per kind of access bounds checking guards, each steered by its
; scalar arguments to stay in bounds, to touch memory only on masked-off
; lanes, or to leave its buffer.

; Masked vector load and store of 8 floats: lanes i < n are on.
define void @masked_copy(ptr %src, ptr %dst, i32 %n, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy,
                         i32 %gz) {
  %bound = insertelement <8 x i32> poison, i32 %n, i64 0
  %bounds = shufflevector <8 x i32> %bound, <8 x i32> poison, <8 x i32> zeroinitializer
  %mask = icmp slt <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, %bounds
  %v = call <8 x float> @llvm.masked.load.v8f32.p0(ptr %src, i32 4, <8 x i1> %mask,
                                                   <8 x float> zeroinitializer)
  call void @llvm.masked.store.v8f32.p0(<8 x float> %v, ptr %dst, i32 4, <8 x i1> %mask)
  ret void
}

; Gather and scatter of lanes {0, 1, 2, k}; lane 3 is on only when %on is nonzero.
define void @gather_scatter(ptr %src, ptr %dst, i32 %k, i32 %on, i32 %x, i32 %y, i32 %z, i32 %gx,
                            i32 %gy, i32 %gz) {
  %wide = sext i32 %k to i64
  %index = insertelement <4 x i64> <i64 0, i64 1, i64 2, i64 0>, i64 %wide, i64 3
  %from = getelementptr float, ptr %src, <4 x i64> %index
  %to = getelementptr float, ptr %dst, <4 x i64> %index
  %last = icmp ne i32 %on, 0
  %mask = insertelement <4 x i1> <i1 true, i1 true, i1 true, i1 true>, i1 %last, i64 3
  %v = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %from, i32 4, <4 x i1> %mask,
                                                       <4 x float> zeroinitializer)
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %v, <4 x ptr> %to, i32 4, <4 x i1> %mask)
  ret void
}

; memcpy of %bytes bytes, then memset of the same bytes of %src to 7.
define void @copy_bytes(ptr %src, ptr %dst, i64 %bytes, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy,
                        i32 %gz) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %bytes, i1 false)
  call void @llvm.memset.p0.i64(ptr %src, i8 7, i64 %bytes, i1 false)
  ret void
}

; Atomic add to counters[i] and compare-and-swap of counters[i + 1].
define void @count(ptr %counters, i32 %i, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy, i32 %gz) {
  %wide = sext i32 %i to i64
  %at = getelementptr i32, ptr %counters, i64 %wide
  %old = atomicrmw add ptr %at, i32 1 seq_cst
  %next = getelementptr i32, ptr %at, i64 1
  %swap = cmpxchg ptr %next, i32 0, i32 5 seq_cst seq_cst
  ret void
}

; Stores 1.0 to table[0][i] (a pointer read from the table) and 2.0 to direct[j].
define void @indirect(ptr %table, ptr %direct, i32 %i, i32 %j, i32 %x, i32 %y, i32 %z, i32 %gx,
                      i32 %gy, i32 %gz) {
  %p = load ptr, ptr %table
  %wide = sext i32 %i to i64
  %at = getelementptr float, ptr %p, i64 %wide
  store float 1.0, ptr %at
  %wj = sext i32 %j to i64
  %to = getelementptr float, ptr %direct, i64 %wj
  store float 2.0, ptr %to
  ret void
}

declare <8 x float> @llvm.masked.load.v8f32.p0(ptr, i32, <8 x i1>, <8 x float>)
declare void @llvm.masked.store.v8f32.p0(<8 x float>, ptr, i32, <8 x i1>)
declare <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x float>)
declare void @llvm.masked.scatter.v4f32.v4p0(<4 x float>, <4 x ptr>, i32, <4 x i1>)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
