# The matrices of matmul.ctm, computed in place: output 0 = A(i, j) = i - j and output 1 =
# B(i, j) = i + 2 j (small integers, so every product and sum of the multiply is exact).
out  o0.rgb = mad -src0.ggg, src0.111, src0.rrr {src0 = r0}
out  o1.rgb = mad src0.ggg, src1.rrr, src0.rrr {src0 = r0, src1 = 2} [sem_wait, last]
