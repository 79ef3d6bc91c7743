; half: 16 results in halves per thread from the halves a, b, c, d of rec[i] (two words: a, b
; in the first, c, d in the second), for i < n, at out[16 i + k] (u16):
;  0 fadd16 a, b          1 fmul16 a, b           2 fmadd16 a, b, c       3 fmadd16 -a, |b|, d
;  4 fadd16.sat a, c      5 fmadd16 a, 0.5, c     6 fadd16 |a|, -b        7 fmul16.sat b, d
;  8 c + d (u16)          9 a.s + d.s saturated to s16                    10 a * b + c (u16)
; 11 a - c saturated to u16                      12 asr b, 3 (16 bits)    13 a ^ d
; 14 fmadd16 c, d, a     15 b + (c << 1) (u16)
; f16 arithmetic rounds once to nearest even, keeps denormals and gives the default NaN
; (0x7e00) for any NaN; .sat clamps to [+0, 1] (NaN and negatives to +0).
; Arguments: rec u0_u1 (2 words per thread), out u2_u3 (8 words per thread), n u4 (u32).
    mov_imm r0l, 0
    get_sr r2, sr80 (thread_position_in_grid.x)
    if_icmp r0l, ult, r2, u4, 1
    jmp_exec_none pc+done
    device_load 0, i32, xy, r3_r4, u0_u1, r2, unsigned, lsl 1
    wait 0
    fadd16 r10l, r3l, r3h
    fmul16 r10h, r3l, r3h
    fmadd16 r11l, r3l, r3h, r4l
    fmadd16 r11h, r3l.neg, r3h.abs, r4h
    fadd16.sat r12l, r3l, r4l
    fmadd16 r12h, r3l, 0.5, r4l
    fadd16 r13l, r3l.abs, r3h.neg
    fmul16.sat r13h, r3h, r4h
    iadd r14l, r4l, r4h
    iadd.sat r14h, r3l.sx, r4h.sx
    imadd r15l, r3l, r3h, r4l
    isub.sat r15h, r3l, r4l
    asr r16l, r3h, 3
    xor r16h, r3l, r4h
    fmadd16 r17l, r4l, r4h, r3l
    iadd r17h, r3h, r4l, lsl 1
    iadd r5, r2, r2
    iadd r6, r5, 1
    device_store 0, i32, xyzw, r10_r11_r12_r13, u2_u3, r5, unsigned, lsl 2, 0
    device_store 0, i32, xyzw, r14_r15_r16_r17, u2_u3, r6, unsigned, lsl 2, 0
done:
    pop_exec r0l, 1
    stop
