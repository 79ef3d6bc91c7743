; saxpy: out[i] = a * x[i] + y[i] for i < n, one fused multiply-add (fmadd32: one rounding,
; fp32 denormal inputs and results flushed, any NaN the default NaN).
; Arguments: x u0_u1, y u2_u3, out u4_u5 (f32 buffers), a u6 (f32 value), n u8 (u32).
    mov_imm r0l, 0
    get_sr r2, sr80 (thread_position_in_grid.x)
    if_icmp r0l, ult, r2, u8, 1
    jmp_exec_none pc+done
    device_load 0, i32, x, r3, u0_u1, r2, unsigned
    device_load 0, i32, x, r4, u2_u3, r2, unsigned
    wait 0
    fmadd32 r5, u6, r3, r4
    device_store 0, i32, x, r5, u4_u5, r2, unsigned, 0
done:
    pop_exec r0l, 1
    stop
