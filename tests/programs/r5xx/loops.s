# Nested loops with BREAK and CONTINUE inside branches (seed 003 §3.5.4 encodings), REP
# around LOOP, aL-relative temporary writes, an output written channel by channel.
# v, w = input t0's R and G at (i, j) (small integers as floats); float constants
# c[k] = (k, a_k, 0, 0); integer constants 0 = (N, 0, 1) (the LOOP), 1 = (2, 0, 0) (the REP).
#   repeat 2 times:
#     for k = 0 .. N-1 (aL = k):
#       if k - v >= 0: break                      (IF p.r / BREAK, B_POP_CNT 1 / ENDIF)
#       if frc((k + w) / 2) - 0.25 >= 0: continue (k + w odd; IF p.g / CONTINUE / ENDIF)
#       acc = a_k + acc;  r(10 + k).r = acc
# o0 = (acc, acc, acc, acc), o1 = (r10.r, r11.r, r12.r, r13.r).
# proginfo: full_fc
     tex  r1.rgba = ld t0, r0.rgrr [sem_wait, acquire, unscaled]
     fc   rep done [int=1]
rtop:
     fc   loop lend [int=0]
ltop:
     alu  p.r(ge) = mad src0.rrr, src1.111, -src1.rrr {src0 = c0+aL, src1 = r1} [sem_wait]
     fc   jump if1 [alu_wait, func=0x33, rgb_pred=rrrr, b_op0=incr]          # IF p.r
     fc   breakloop lend [func=0xff, b_op1=decr, pop_cnt=1]                   # BREAK
     fc   jump 0 [func=0x00, any, b_op0=decr, pop_cnt=1]                      # ENDIF
if1:
     alu  r2.r = mad.d2 src0.rrr, src0.111, src1.ggg {src0 = c0+aL, src1 = r1}
     alu  r2.g = frc src0.rrr {src0 = r2}
     alu  p.g(ge) = mad src0.ggg, src0.111, -src1.ggg {src0 = r2, src1 = 0.25}
     fc   jump if2 [alu_wait, func=0x33, rgb_pred=gggg, b_op0=incr]          # IF p.g
     fc   continue lbody_end [func=0xff, b_op1=decr, pop_cnt=1]               # CONTINUE
     fc   jump 0 [func=0x00, any, b_op0=decr, pop_cnt=1]                      # ENDIF
if2:
     alu  r3.rgb = mad src0.ggg, src0.111, src1.rrr ; r3.a = mad src0.g, src0.1, src1.r {src0 = c0+aL, src1 = r3}
     alu  r10+aL.r = max.disable src0.rrr, src0.rrr {src0 = r3}
lbody_end:
     fc   endloop ltop [func=0xff, any]
lend:
     fc   endrep rtop [func=0xff, any]
done:
     out  o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a = max.disable src0.a, src0.a {src0 = r3}
     out  o1.r = max.disable src0.rrr, src0.rrr {src0 = r10}
     out  o1.g = max.disable src0.rrr, src0.rrr {src0 = r11}
     out  o1.b = max.disable src0.rrr, src0.rrr {src0 = r12}
     out  _ = mad src0.rrr, src0.rrr, src0.rrr ; o1.a = max.disable src0.r, src0.r {src0 = r13} [last]
