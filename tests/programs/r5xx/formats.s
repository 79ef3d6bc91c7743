# Every data format. Inputs (formats.ctm): t0 UINT16_1, t1 UINT8_4, t2 FLOAT32_1, t3 FLOAT32_2,
# t4 FLOAT32_4, all LINEAR with pitches that are not multiples of 32 / bpe (channels a format
# lacks read as G = 0, B = 0, A = 1). c0 a float constant (one table per run). At (i, j):
#   o0 = t1 * c0 + t0     (unorm values scaled out of [0, 1], for the outputs' clamping)
#   o1 = t2 * t3 + t4
#   o2 = t4               (bit copies: NaN, infinities, denormals, -0 reach the outputs)
#   o3 = t3
# The runs bind the outputs to surfaces of every format, with several set_out_mask values.
     tex  r1.rgba = ld t0, r0.rgrr [unscaled]
     tex  r2.rgba = ld t1, r0.rgrr [unscaled]
     tex  r3.rgba = ld t2, r0.rgrr [unscaled]
     tex  r4.rgba = ld t3, r0.rgrr [unscaled]
     tex  r5.rgba = ld t4, r0.rgrr [sem_wait, acquire, unscaled]
     out  o0.rgb = mad src0.rgb, src1.rgb, src2.rgb ; o0.a = mad src0.a, src1.a, src2.a {src0 = r2, src1 = c0, src2 = r1} [sem_wait]
     out  o1.rgb = mad src0.rgb, src1.rgb, src2.rgb ; o1.a = mad src0.a, src1.a, src2.a {src0 = r3, src1 = r4, src2 = r5}
     out  o2.rgb = max.disable src0.rgb, src0.rgb ; o2.a = max.disable src0.a, src0.a {src0 = r5}
     out  o3.rgb = max.disable src0.rgb, src0.rgb ; o3.a = max.disable src0.a, src0.a {src0 = r4} [last]
