; benches/kernels/alu_heavy.cl written by hand in applegpu syntax, in the shapes Mesa compiles
; compute shaders to (notes/g13_sources.md §4), computing the same bits as the OpenCL C
; source and the native reference (src/native.rs): every multiply and add separately
; rounded, fmaf as fmadd32, fminf/fmaxf as compare-selects (no NaN, no signed-zero tie
; reaches them), and no denormal value (G13 would flush it).
; Arguments: out u0_u1, in u2_u3, iters u4, active u6. Threadgroups of 64 threads.
; Registers: r2 i, r3 a, r4 b, r5 c, r6 h, r7 k, r8-r9 temporaries, r10 0.999, r11 0.001,
; r12 2654435761, r13 the sign bit (-x as a bit flip: fmul32 by -1 would make -0 of +0).
.globl alu_heavy
alu_heavy:
  mov_imm r0l, 0
  get_sr r2, sr80 (thread_position_in_grid.x)
  device_load 0, i32, x, r3, u2_u3, r2, unsigned
  wait 0
  mov_imm r10, 1065336439, 0b0
  mov_imm r11, 981668463, 0b0
  mov_imm r12, 2654435761, 0b0
  mov_imm r13, 2147483648, 0b0
  fmul32 r8, r3, 0.5
  fadd32 r4, r8, 1.0
  fadd32 r5, 1.0, r3.neg
  imadd r6, r2, r12, 1
  ; if ((i & 3) < active && iters > 0)
  and r8, r2, 3
  if_icmp r0l, ult, r8, u6, 1
  jmp_exec_none pc+skip
  if_icmp r0l, ugt, u4, 0, 1
  jmp_exec_none pc+skip2
  mov_imm r7, 0, 0b0
  if_fcmp r0l, eq, 0.0, 0.0, 2
loop:
  fmadd32 r3, r3, r4, r5
  fmul32 r8, r4, r10
  fadd32 r9, r3, 3.0
  fcmpsel lt, r4, r8, r9, r8, r9
  fadd32 r8, r5, 0.25.neg
  xor r9, r3, r13
  fcmpsel gt, r5, r8, r9, r8, r9
  bfi r8, 0, r6, 13
  xor r6, r6, r8
  bfeil r8, 0, r6, 17
  xor r6, r6, r8
  bfi r8, 0, r6, 5
  xor r6, r6, r8
  and r8, r6, 255
  convert u32_to_f, r8, r8, rte
  fmul32 r8, r8, r11
  fmul32 r9, r3, 0.5
  fadd32 r3, r9, r8
  iadd r7, r7, 1
  while_icmp r0l, ult, r7, u4, 1
  jmp_exec_any pc+loop
  pop_exec r0l, 2
skip2:
  pop_exec r0l, 1
skip:
  pop_exec r0l, 1
  fadd32 r8, r3, r4
  fadd32 r8, r8, r5
  convert u16_to_f, r9, r6, rte
  fadd32 r8, r8, r9
  device_store 0, i32, x, r8, u0_u1, r2, unsigned, 0
  stop
