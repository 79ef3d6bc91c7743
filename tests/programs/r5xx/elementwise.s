# Elementwise: three outputs from four inputs at every index pair (i, j) of the domain.
#   o0 = a * b + c        (per channel; c is FLOAT32_1, so it reads (c, 0, 0, 1))
#   o1 = a * c0 + d       (c0 a float constant; d read with scaled coordinates)
#   o2 = dp4(a, b)        (all four channels)
# Inputs (elementwise.ctm): t0 = a, t1 = b (FLOAT32_4), t2 = c (FLOAT32_1), t3 = d (FLOAT32_2,
# pitch 64, height 32). r0 = (i, j, 0, 1) at the start: unscaled reads take (i, j) as texel
# coordinates; the scaled read of d takes (i / 64, j / 32), which the texture unit scales back
# by the input's pitch and height. c1 = (1/64, 1/32, 0, 0).
tex  r1.rgba = ld t0, r0.rgrr [unscaled]
tex  r2.rgba = ld t1, r0.rgrr [unscaled]
tex  r3.rgba = ld t2, r0.rgrr [sem_wait, acquire, unscaled]
alu  r4.rgb = mad src0.rgb, src1.rgb, src2.000 {src0 = r0, src1 = c1} [sem_wait]
tex  r5.rgba = ld t3, r4.rgrr [sem_wait, acquire]
out  o0.rgb = mad src0.rgb, src1.rgb, src2.rgb ; o0.a = mad src0.a, src1.a, src2.a {src0 = r1, src1 = r2, src2 = r3} [sem_wait]
out  o1.rgb = mad src0.rgb, src1.rgb, src2.rgb ; o1.a = mad src0.a, src1.a, src2.a {src0 = r1, src1 = c0, src2 = r5}
out  o2.rgb = dp4 src0.rgb, src1.rgb ; o2.a = dp src0.a, src1.a {src0 = r1, src1 = r2} [sem_wait, last]
