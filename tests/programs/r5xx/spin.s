# An endless loop: the jump back to slot 0 is always taken (JUMP_FUNC 0xff: every
# processor wants to jump whatever its ALU result, predicate and boolean). Only fuel ends it.
top:
fc   jump top [func=0xff]
out  o0.rgb = mad src0.rgb, src0.111, src0.000 ; o0.a = mad src0.a, src0.1, src0.0 {src0 = r0} [sem_wait, last]
