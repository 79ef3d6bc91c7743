# Escape time of z -> z^2 + c, c = (x0 + i dx, y0 + j dy) with c0 = (x0, y0, dx, dy): the
# number of iterations until |z|^2 > 4 (at most integer constant 0's count), as a float in
# output 0. r1 = c, r2 = z, r3.r = the count, r4 scratch.
alu  r1.rg = mad src0.rgr, src1.bab, src1.rgr {src0 = r0, src1 = c0}
fc   loop done [int=0]
top:
alu  r4.r = mad -src0.ggg, src0.ggg, src1.rrr {src0 = r2, src1 = r1}
alu  r2.g = mad srcp.rrr, src0.ggg, src2.ggg {src0 = r2, src1 = r2, src2 = r1, srcp = add}
alu  r2.r = mad src0.rrr, src0.rrr, src1.rrr {src0 = r2, src1 = r4}
alu  r3.r = mad src0.rrr, src0.111, src0.111 {src0 = r3}
alu  _ = mad src0.rrr, src0.rrr, src0.rrr ; r4.a = mad -src0.g, src0.g, src1.r {src0 = r2, src1 = 4}
alu  _ = mad src0.rrr, src0.rrr, src0.rrr ; r4.a = mad -src0.r, src0.r, src1.a {src0 = r2, src1 = r4} [alu_result, result_sel=a, result_op=lt]
fc   breakloop done [func=0xf0, b_op1=decr]
fc   endloop top [func=0xff, any]
done:
out  o0.rgb = mad src0.rrr, src0.111, src0.000 ; o0.a = mad src0.r, src0.1, src0.0 {src0 = r3} [sem_wait, last]
