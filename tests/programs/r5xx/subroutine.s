# Subroutines (CALL and RET through the address stack), an IF/ELSE/ENDIF on a predicate and
# IFs on boolean constants, in full flow-control mode, with the encodings of seed 003 §3.5.4.
# x = input t0 at (i, j) (FLOAT32_4); c0, c1, c2 float constants; b2 true, b3 false.
#   r2 = x * c0; if i >= 10: call add (r2 = r2 + c1, then a nested call of twice);
#   if j < 5: call twice (r2 = r2 * 2 + 1) else r3 = 0.5 - x, r5 = 2 x (WRITE_INACTIVE: every
#   running processor of the SIMD group writes r5, whichever branch it is in);
#   if b2: r4 = x + c2; if b3: r4 = r4 + c1.
#   o0 = r2, o1 = r3, o2 = r4, o3 = r5 (temporaries not written stay 0).
# proginfo: full_fc
     tex  r1.rgba = ld t0, r0.rgrr [sem_wait, acquire, unscaled]
     alu  r2.rgb = mad src0.rgb, src1.rgb, src0.000 ; r2.a = mad src0.a, src1.a, src0.0 {src0 = r1, src1 = c0} [sem_wait]
     alu  _ = mad src0.rrr, src0.111, -src1.rrr {src0 = r0, src1 = 10} [alu_result, result_op=ge]
     fc   jump add [alu_wait, func=0xf0, any, a_op=push, b_op1=incr]          # CALL c
     alu  p.r(lt) = mad src0.ggg, src0.111, -src1.ggg {src0 = r0, src1 = 5}     # p.r = j - 5 < 0
     fc   jump otherwise [alu_wait, func=0x33, rgb_pred=rrrr, b_op0=incr, b_op1=incr]  # IF p
     fc   jump twice [func=0xff, any, a_op=push, b_op1=incr]                 # CALL
     fc   jump endif_next [func=0x00, else, b_op1=decr, pop_cnt=1]            # ELSE
otherwise:
     alu  r3.rgb = mad -src0.rgb, src0.111, src0.hhh ; r3.a = mad -src0.a, src0.1, src0.h {src0 = r1}
     alu  r5.rgb = mad src0.rgb, src1.rgb, src0.000 ; r5.a = mad src0.a, src1.a, src0.0 {src0 = r1, src1 = 2} [write_inactive]
     fc   jump 0 [func=0x00, any, b_op0=decr, pop_cnt=1]                      # ENDIF
endif_next:
     fc   jump no_b2 [func=0x55, bool=2]                                       # IF b2
     alu  r4.rgb = mad src0.rgb, src0.111, src1.rgb ; r4.a = mad src0.a, src0.1, src1.a {src0 = r1, src1 = c2}
no_b2:
     fc   jump no_b3 [func=0x55, bool=3]                                       # IF b3
     alu  r4.rgb = mad src0.rgb, src0.111, src1.rgb ; r4.a = mad src0.a, src0.1, src1.a {src0 = r4, src1 = c1}
no_b3:
     out  o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a = max.disable src0.a, src0.a {src0 = r2}
     out  o1.rgb = max.disable src0.rgb, src0.rgb ; o1.a = max.disable src0.a, src0.a {src0 = r3}
     out  o2.rgb = max.disable src0.rgb, src0.rgb ; o2.a = max.disable src0.a, src0.a {src0 = r4}
     out  o3.rgb = max.disable src0.rgb, src0.rgb ; o3.a = max.disable src0.a, src0.a {src0 = r5} [last]
add:
     alu  r2.rgb = mad src0.rgb, src0.111, src1.rgb ; r2.a = mad src0.a, src0.1, src1.a {src0 = r2, src1 = c1}
     fc   jump twice [func=0xff, any, a_op=push, b_op1=incr]                 # CALL (nested)
     fc   jump 0 [func=0xff, a_op=pop, b_op1=decr, pop_cnt=1]                 # RET
twice:
     alu  r2.rgb = mad src0.rgb, src1.rgb, src0.111 ; r2.a = mad src0.a, src1.a, src0.1 {src0 = r2, src1 = 2}
     fc   jump 0 [func=0xff, a_op=pop, b_op1=decr, pop_cnt=1]                 # RET
