# Mandelbrot escape time. c = (i, j) * c0 + c1 (float constants); z = 0; up to N iterations
# (integer constant 0 = (N, 0, 1)) of z = z^2 + c, n = n + 1, leaving the loop (BREAKLOOP on
# the ALU result) once |z|^2 - 4 >= 0. Output o0 = (zx, zy, 0, n) as they are at the exit.
# Registers: r1 = (zx, zy, _, n), r2 = (cx, cy, cy / 2, _), r3 scratch.
# proginfo: full_fc
     alu  r2.rgb = mad src0.rgb, src1.rgb, src2.rgb {src0 = r0, src1 = c0, src2 = c1}
     alu  r2.b = mad src0.ggg, src1.ggg, src0.000 {src0 = r2, src1 = 0.5}
     fc   loop done [int=0]
body:
     alu  r3.r = mad src0.rrr, src0.rrr, src1.rrr ; r3.a = mad src0.a, src0.1, src0.1 {src0 = r1, src1 = r2}
     alu  r3.g = mad.x2 src0.rrr, src0.ggg, src1.bbb {src0 = r1, src1 = r2}
     alu  r1.r = mad -src0.ggg, src0.ggg, src1.rrr {src0 = r1, src1 = r3}
     alu  r1.g = max.disable src0.ggg, src0.ggg ; r1.a = max.disable src0.a, src0.a {src0 = r3}
     alu  _ = d2a src0.rg0, src0.rg0, -src1.bbb {src0 = r1, src1 = 4} [alu_result, result_op=ge]
     fc   breakloop done [alu_wait, func=0xf0, b_op1=decr]
     fc   endloop body [func=0xff, any]
done:
     out  o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a = max.disable src0.a, src0.a {src0 = r1} [sem_wait, last]
