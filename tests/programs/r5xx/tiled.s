# Tiled inputs and outputs of every bytes-per-element, and 2x2 superfine inputs.
# Inputs (tiled.ctm): t0 UINT16_1, t1 UINT8_4, t2 FLOAT32_2, t3 FLOAT32_4, all TILED;
# t4 FLOAT32_1 LINEAR_INP_2X2 and t5 UINT16_1 TILED_INP_2X2 (one read gives elements
# (i+1, j), (i, j+1), (i+1, j+1), (i, j) in R, G, B, A). At (i, j):
#   o0 (UINT16_1, TILED)  = t5's four elements, of which the format keeps R
#   o1 (UINT8_4, TILED)   = t1.bgra
#   o2 (FLOAT32_2, TILED) = t2 + t4  (per channel; t2's B, A read as 0, 1)
#   o3 (FLOAT32_4, TILED) = t3 * t0.r + t4
     tex  r1.rgba = ld t0, r0.rgrr [unscaled]
     tex  r2.rgba = ld t1, r0.rgrr [unscaled]
     tex  r3.rgba = ld t2, r0.rgrr [unscaled]
     tex  r4.rgba = ld t3, r0.rgrr [unscaled]
     tex  r5.rgba = ld t4, r0.rgrr [unscaled]
     tex  r6.rgba = ld t5, r0.rgrr [sem_wait, acquire, unscaled]
     out  o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a = max.disable src0.a, src0.a {src0 = r6} [sem_wait]
     out  o1.rgb = max.disable src0.bgr, src0.bgr ; o1.a = max.disable src0.a, src0.a {src0 = r2}
     out  o2.rgb = mad src0.rgb, src0.111, src1.rgb ; o2.a = mad src0.a, src0.1, src1.a {src0 = r3, src1 = r5}
     out  o3.rgb = mad src0.rgb, src1.rrr, src2.rgb ; o3.a = mad src0.a, src1.r, src2.a {src0 = r4, src1 = r1, src2 = r5} [last]
