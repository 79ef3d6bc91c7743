# Derivatives over quads: f = input t0 at (i, j) (FLOAT32_4). MDH gives every processor of a
# quad (the 2x2 block at even (i, j)) f(top right) - f(top left), MDV f(bottom left) -
# f(top left): A is the top-left processor's src0, C the top-right (bottom-left) one's, both
# with their input modifiers, B = 1 (RGB) or c0.a (alpha, a float constant, so the alpha
# results are scaled by it).
# t1 (FLOAT32_1) holds -1 where a processor is killed (TEXKILL on its R channel), +1
# elsewhere: a killed processor writes no output but still serves its quad.
#   o0 = ddx(f), o1 = ddy(f), o2 = f read again by TEX DXDY with the gradients (r3, r4).
# The domain starts and ends at odd coordinates, so edge quads have processors outside it.
     tex  r1.rgba = ld t0, r0.rgrr [unscaled]
     tex  r2.rgba = ld t1, r0.rgrr [sem_wait, acquire, unscaled]
     tex  r0.r = texkill t1, r2.rgba [sem_wait]
     alu  r3.rgb = mdh -src0.rgb, src0.111, src0.rgb ; r3.a = mdh -src0.a, src1.a, src0.a {src0 = r1, src1 = c0} [nop]
     alu  r4.rgb = mdv -src0.rgb, src0.111, src0.rgb ; r4.a = mdv -src0.a, src1.a, src0.a {src0 = r1, src1 = c0}
     tex  r5.rgba = dxdy t0, r0.rgrr, r3.rgba, r4.rgba [alu_wait, unscaled]
     out  o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a = max.disable src0.a, src0.a {src0 = r3}
     out  o1.rgb = max.disable src0.rgb, src0.rgb ; o1.a = max.disable src0.a, src0.a {src0 = r4} [sem_wait]
     out  o2.rgb = max.disable src0.rgb, src0.rgb ; o2.a = max.disable src0.a, src0.a {src0 = r5} [sem_wait, last]
