# C = A B for 16x16 FLOAT32_1 matrices: C(i, j) = sum over k of A(k, j) B(i, k), element
# (x, y) being column x of row y. Inputs 0 (A) and 1 (B), output 0 (C); integer constant 0
# = (16 iterations, aL 0, step 0). r1 = (k, j): A's coordinates; r2 = (i, k): B's; r3.r =
# the sum.
alu  r1.rgb = mad src0.0g0, src0.111, src0.000 {src0 = r0}
alu  r2.rgb = mad src0.r00, src0.111, src0.000 {src0 = r0}
alu  r3.rgb = mad src0.000, src0.000, src0.000 {src0 = r0}
fc   loop done [int=0]
top:
tex  r4.rgba = ld t0, r1.rgrr [unscaled]
tex  r5.rgba = ld t1, r2.rgrr [unscaled]
alu  r3.r = mad src0.rrr, src1.rrr, src2.rrr {src0 = r4, src1 = r5, src2 = r3}
alu  r1.r = mad src0.rrr, src0.111, src0.111 {src0 = r1}
alu  r2.g = mad src0.ggg, src0.111, src0.111 {src0 = r2}
fc   endloop top [func=0xff, any, int=0]
done:
out  o0.rgb = mad src0.rrr, src0.111, src0.000 ; o0.a = mad src0.r, src0.1, src0.0 {src0 = r3} [sem_wait, last]
