# c = 2 a + 1 through a subroutine call: slot 0 jumps over the subroutine (r1 = 2 r2,
# then RETURN); the main program loads a (input 0) into r2, CALLs, and writes r1 + 1 to
# output 0. CALL and RETURN are the encodings of seed 003 §3.5.4.
fc   jump main [func=0xff]
sub:
alu  r1.rgb = mad src0.rgb, src1.rrr, src1.000 ; r1.a = mad src0.a, src1.r, src1.0 {src0 = r2, src1 = 2}
fc   jump 0 [func=0xff, a_op=pop, b_op1=decr, pop_cnt=1]
main:
tex  r2.rgba = ld t0, r0.rgrr [unscaled]
fc   jump sub [func=0xff, any, a_op=push, b_op1=incr]
out  o0.rgb = mad src0.rgb, src1.rrr, src1.rrr ; o0.a = mad src0.a, src1.r, src1.r {src0 = r1, src1 = 1} [sem_wait, last]
