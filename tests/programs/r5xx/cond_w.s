# Conditional output with an exported conditional value. x = input t0 at (i, j)
# (FLOAT32_4), c0 a float constant (one table per run: set_constf_fmt moves between runs).
# The predicate bit p.r = (x.r - 0.5 >= 0) selects by predication which half writes r2:
#   r2.rgb = x.rgb * c0.rgb where p.r, else 0;  r2.a = x.a where !p.r, else x.b.
# o0 = r2, and W = r2.a: the conditional value the CO compares and writes (program info
# FG_DEPTH_SRC bit 0, "exports_cond").
# proginfo: exports_cond
     tex  r1.rgba = ld t0, r0.rgrr [sem_wait, acquire, unscaled]
     alu  p.r(ge) = mad src0.rrr, src0.111, -src1.rrr {src0 = r1, src1 = 0.5} [sem_wait]
     alu  (p.rrrr) r2.rgb = mad src0.rgb, src1.rgb, src0.000 ; r2.a = max.disable src0.b, src0.b {src0 = r1, src1 = c0}
     alu  _ = mad src0.rrr, src0.rrr, src0.rrr ; (!p.rrrr) r2.a = max.disable src0.a, src0.a {src0 = r1}
     out  o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a, w = max.disable src0.a, src0.a {src0 = r2} [last]
