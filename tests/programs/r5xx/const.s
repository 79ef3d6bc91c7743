# c = constant 0 + constant 1 in every element: reads the float constants c0 and c1.
out  o0.rgb = mad src0.rgb, src0.111, src1.rgb ; o0.a = mad src0.a, src0.1, src1.a {src0 = c0, src1 = c1} [sem_wait, last]
