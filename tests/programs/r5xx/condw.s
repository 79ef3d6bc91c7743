# c = a + b with a exported as the conditional value (W): the DPP's conditional test
# compares a with the conditional buffer, and a processor that passes writes c (and, with
# set_cond_out_mask, a to the buffer).
tex  r1.rgba = ld t0, r0.rgrr [unscaled]
tex  r2.rgba = ld t1, r0.rgrr [unscaled]
out  _ = mad src0.rrr, src0.rrr, src0.rrr ; w = mad src0.r, src0.1, src0.0 {src0 = r1}
out  o0.rgb = mad src0.rgb, src0.111, src1.rgb ; o0.a = mad src0.a, src0.1, src1.a {src0 = r1, src1 = r2} [sem_wait, last]
