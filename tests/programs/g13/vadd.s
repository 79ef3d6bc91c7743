; vadd: c[i] = a[i] + b[i] for i < n (fadd32: one rounding, fp32 denormals flushed).
; Arguments: a u0_u1, b u2_u3, c u4_u5 (f32 buffers), n u6 (u32).
    mov_imm r0l, 0
    get_sr r2, sr80 (thread_position_in_grid.x)
    if_icmp r0l, ult, r2, u6, 1
    jmp_exec_none pc+done
    device_load 0, i32, x, r3, u0_u1, r2, unsigned
    device_load 0, i32, x, r4, u2_u3, r2, unsigned
    wait 0
    fadd32 r5, r3, r4
    device_store 0, i32, x, r5, u4_u5, r2, unsigned, 0
done:
    pop_exec r0l, 1
    stop
