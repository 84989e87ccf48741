; Writes all six program values of each program to out[linear * 6 + k].
define void @program_ids(ptr %out, i32 %x, i32 %y, i32 %z, i32 %gx, i32 %gy, i32 %gz) {
  %x64 = zext i32 %x to i64
  %y64 = zext i32 %y to i64
  %z64 = zext i32 %z to i64
  %gx64 = zext i32 %gx to i64
  %gy64 = zext i32 %gy to i64
  %zy = mul i64 %z64, %gy64
  %row = add i64 %zy, %y64
  %rowstart = mul i64 %row, %gx64
  %linear = add i64 %rowstart, %x64
  %base = mul i64 %linear, 6
  %p0 = getelementptr i32, ptr %out, i64 %base
  store i32 %x, ptr %p0
  %p1 = getelementptr i32, ptr %p0, i64 1
  store i32 %y, ptr %p1
  %p2 = getelementptr i32, ptr %p0, i64 2
  store i32 %z, ptr %p2
  %p3 = getelementptr i32, ptr %p0, i64 3
  store i32 %gx, ptr %p3
  %p4 = getelementptr i32, ptr %p0, i64 4
  store i32 %gy, ptr %p4
  %p5 = getelementptr i32, ptr %p0, i64 5
  store i32 %gz, ptr %p5
  ret void
}
