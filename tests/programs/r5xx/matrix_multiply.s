# Matrix multiply: C = A * B, C[j][i] = sum over k of A[j][k] * B[k][i], at index pair (i, j).
# A is element (k, j) of input t0, B element (i, k) of input t1, C element (i, j) of output o0
# (all FLOAT32_1). Integer constant 0 = (K, 0, 1): the loop runs its body K times with aL =
# 0, 1, ..., K - 1; float constant c[k] = (k, k, k, k), read as c0 + aL, is the column k.
# Each iteration builds the texel coordinates (k, j) and (i, k) from it and r0 = (i, j, 0, 1)
# and accumulates one product in r1.r (0 at the start).
# proginfo: full_fc
     fc   loop done [alu_wait, int=0]
body:
     alu  r2.rgb = mad src0.r00, src0.111, src1.0g0 {src0 = c0+aL, src1 = r0}
     alu  r3.rgb = mad src0.0r0, src0.111, src1.r00 {src0 = c0+aL, src1 = r0}
     tex  r4.r = ld t0, r2.rgrr [unscaled]
     tex  r5.r = ld t1, r3.rgrr [sem_wait, acquire, unscaled]
     alu  r1.r = mad src0.rrr, src1.rrr, src2.rrr {src0 = r4, src1 = r5, src2 = r1} [sem_wait]
     fc   endloop body [func=0xff, any]
done:
     out  o0.r = max.disable src0.rrr, src0.rrr {src0 = r1} [sem_wait, last]
