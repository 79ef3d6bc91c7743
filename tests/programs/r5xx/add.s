# c = a + b, one FLOAT32_1 element per index pair: input 0 and input 1 at (i, j), written
# to output 0 at (i, j). r0 holds (i, j, 0.0, 1.0) at the start (README "ATI R5xx").
tex  r1.rgba = ld t0, r0.rgrr [unscaled]
tex  r2.rgba = ld t1, r0.rgrr [unscaled]
out  o0.rgb = mad src0.rgb, src0.111, src1.rgb ; o0.a = mad src0.a, src0.1, src1.a {src0 = r1, src1 = r2} [sem_wait, last]
