# c = a, bit for bit: input 0 at (i, j) to output 0 at (i, j) through MAX with the output
# modifier disabled (a move that keeps every bit, seed 003 §3.3.5).
tex  r1.rgba = ld t0, r0.rgrr [unscaled]
out  o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a = max.disable src0.a, src0.a {src0 = r1} [sem_wait, last]
