# Conditional execution and conditional output without an exported value: the CO compares
# the PE's value (set_cond_val). o0 = x * c0 + (i, j, 0, 1), x = input t0 at (i, j)
# (FLOAT32_4), c0 a float constant (one table per run).
     tex  r1.rgba = ld t0, r0.rgrr [sem_wait, acquire, unscaled]
     out  o0.rgb = mad src0.rgb, src1.rgb, src2.rgb ; o0.a = mad src0.a, src1.a, src2.a {src0 = r1, src1 = c0, src2 = r0} [sem_wait, last]
