# Derivatives over quads: output 0 (FLOAT32_2) = (v(right) - v(left), v(bottom) - v(top))
# of input 0's value v in each 2x2 quad (MDH and MDV: A = -top-left.src0, B = 1, C = the
# top-right or bottom-left processor's src0; every processor of a quad gets its quad's).
tex  r1.rgba = ld t0.rrrr, r0.rgrr [unscaled]
alu  r2.r = mdh -src0.rrr, src0.111, src0.rrr {src0 = r1}
alu  r2.g = mdv -src0.rrr, src0.111, src0.rrr {src0 = r1}
out  o0.rgb = max.disable src0.rgb, src0.rgb {src0 = r2} [sem_wait, last]
