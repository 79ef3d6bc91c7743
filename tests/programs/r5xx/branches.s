# Nested branches in partial flow-control mode (no "# proginfo: full_fc"), with the
# encodings of seed 003 §3.5.4 and the merged ENDIF of §3.5.5 (one ENDIF, B_POP_CNT 3, the
# inner IFs' jumps popping the outer levels with B_OP1 DECR).
# x = input t0 at (i, j) (FLOAT32_4).
#   if x.r >= 0 (ALU result):      r2.r = 1
#     if x.g >= 0 (predicate p.g): r2.g = 1
#       if x.b >= 0 (ALU result):  r2.b = 1
#   if x.a >= 0 (ALU result): r3 = 1 else r3 = 2      (IF c / ELSE / ENDIF)
# o0 = r2, o1 = r3.
     tex  r1.rgba = ld t0, r0.rgrr [sem_wait, acquire, unscaled]
     alu  p.g(ge) = max.disable src0.rgb, src0.rgb {src0 = r1} [sem_wait, alu_result, result_op=ge]
     fc   jump endif [alu_wait, func=0x0f, b_op0=incr]                      # IF c (x.r)
     alu  r2.r = mad src0.111, src0.111, src0.000
     fc   jump endif [func=0x33, rgb_pred=gggg, b_op0=incr, b_op1=decr, pop_cnt=1]   # IF p.g
     alu  r2.g = mad src0.111, src0.111, src0.000
     alu  _ = mad src0.rrr, src0.rrr, src0.rrr ; _ = max.disable src0.b, src0.b {src0 = r1} [alu_result, result_sel=a, result_op=ge]
     fc   jump endif [alu_wait, func=0x0f, b_op0=incr, b_op1=decr, pop_cnt=2]      # IF c (x.b)
     alu  r2.b = mad src0.111, src0.111, src0.000
     fc   jump 0 [func=0x00, any, b_op0=decr, pop_cnt=3]                    # ENDIF x3
endif:
     alu  _ = mad src0.rrr, src0.rrr, src0.rrr ; _ = max.disable src0.a, src0.a {src0 = r1} [alu_result, result_sel=a, result_op=ge]
     fc   jump otherwise [alu_wait, func=0x0f, b_op0=incr, b_op1=incr]      # IF c (x.a)
     alu  r3.rgb = mad src0.111, src0.111, src0.000 ; r3.a = mad src0.1, src0.1, src0.0
     fc   jump after [func=0x00, else, b_op1=decr, pop_cnt=1]               # ELSE
otherwise:
     alu  r3.rgb = mad src0.111, src0.111, src0.111 ; r3.a = mad src0.1, src0.1, src0.1
     fc   jump 0 [func=0x00, any, b_op0=decr, pop_cnt=1]                    # ENDIF
after:
     out  o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a = max.disable src0.a, src0.a {src0 = r2}
     out  o1.rgb = max.disable src0.rgb, src0.rgb ; o1.a = max.disable src0.a, src0.a {src0 = r3} [last]
