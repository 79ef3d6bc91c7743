; int_alu: 24 integer results per thread from a = a_in[i] and b = b_in[i], for i < n, at
; out[24 i + k] (applegpu.py's integer rules: sources zero-extended, sign-extended with .sx,
; results cut to the destination's width):
;  0 a + b              1 a - (b << 2)           2 a.sx + b.sx saturated to s32
;  3 a - b saturated to u32                       4 a * b + a
;  5, 6 the 64-bit product a.sx * b.sx (low word, high word)
;  7 lo16(a).sx * b.sx + hi16(b) saturated to s32
;  8 bfi a, b, 7, mask 0xFFF    9 bfeil a, b, 11, mask 0x1F    10 extr a, b, 13
; 11 asr a, b (amount b & 0x7F) 12 bitop 1101 (a | ~b)          13 popcount a
; 14 bitrev b                    15 ffs a (highest set bit, -1 for 0)
; 16 intl lo16(a), hi16(b)      17 shlhi a, b, 37, mask 0x3FF   18 shrhi a, b, 9, mask 0xFFF
; 19 icmpsel slt: a.s < b.s ? a : b
; 20 if (a.s < b.s) b - a else a - b, a divergent if/else as Mesa emits it (if_icmp, then
;    else_fcmp 0.0 == 0.0 and pop_exec, with jmp_exec_none over the halves no thread runs)
; 21 bfi 0, a, b: a << (b & 0x7F)  22 asrh a, b                   23 imsub a, b, hi16(a), lsl 3
; Arguments: a_in u0_u1, b_in u2_u3, out u4_u5 (u32 buffers), n u6 (u32).
    mov_imm r0l, 0
    get_sr r2, sr80 (thread_position_in_grid.x)
    if_icmp r0l, ult, r2, u6, 1
    jmp_exec_none pc+done
    device_load 0, i32, x, r3, u0_u1, r2, unsigned
    device_load 0, i32, x, r4, u2_u3, r2, unsigned
    wait 0
    iadd r10, r3, r4
    isub r11, r3, r4, lsl 2
    iadd.sat r12, r3.sx, r4.sx
    isub.sat r13, r3, r4
    imadd r14, r3, r4, r3
    imadd r15_r16, r3.sx, r4.sx, 0
    imadd.sat r17, r3l.sx, r4.sx, r4h
    bfi r18, r3, r4, 7, mask 0xFFF
    bfeil r19, r3, r4, 11, mask 0x1F
    extr r20, r3, r4, 13
    asr r21, r3, r4
    bitop 1101, r22, r3, r4
    popcount r23, r3
    bitrev r24, r4
    ffs r25, r3
    intl r26, r3l, r4h
    shlhi r27, r3, r4, 37, mask 0x3FF
    shrhi r28, r3, r4, 9, mask 0xFFF
    icmpsel slt, r29, r3, r4, r3, r4
    if_icmp r0l, slt, r3, r4, 1
    jmp_exec_none pc+else
    isub r30, r4, r3
else:
    else_fcmp r0l, eq, 0.0, 0.0, 1
    jmp_exec_none pc+endif
    isub r30, r3, r4
endif:
    pop_exec r0l, 1
    bfi r31, 0, r3, r4
    asrh r32, r3, r4
    imsub r33, r3, r4, r3h, lsl 3
    imadd r5, r2, 6, 0
    iadd r6, r5, 1
    iadd r7, r5, 2
    iadd r8, r5, 3
    iadd r9, r5, 4
    iadd r34, r5, 5
    device_store 0, i32, xyzw, r10_r11_r12_r13, u4_u5, r5, unsigned, lsl 2, 0
    device_store 0, i32, xyzw, r14_r15_r16_r17, u4_u5, r6, unsigned, lsl 2, 0
    device_store 0, i32, xyzw, r18_r19_r20_r21, u4_u5, r7, unsigned, lsl 2, 0
    device_store 0, i32, xyzw, r22_r23_r24_r25, u4_u5, r8, unsigned, lsl 2, 0
    device_store 0, i32, xyzw, r26_r27_r28_r29, u4_u5, r9, unsigned, lsl 2, 0
    device_store 0, i32, xyzw, r30_r31_r32_r33, u4_u5, r34, unsigned, lsl 2, 0
done:
    pop_exec r0l, 1
    stop
