; hist_device: for i < n, bin = (data[i] >> 5) & 63; hist[bin] += 1 by a device atomic add
; without a result, and tickets[i] = the old value of an atomic add of 1 to counter[0] (so the
; tickets are 0..n-1 in some order).
; Arguments: data u0_u1, hist u2_u3 (64 u32), tickets u4_u5, counter u6_u7 (u32 buffers),
; n u8 (u32).
    mov_imm r0l, 0
    get_sr r2, sr80 (thread_position_in_grid.x)
    if_icmp r0l, ult, r2, u8, 1
    jmp_exec_none pc+done
    device_load 0, i32, x, r3, u0_u1, r2, unsigned
    wait 0
    bfeil r5, 0, r3, 5, mask 0x3F
    mov_imm r6, 1, 0b0
    atomic add, 0, None, u2_u3, r5, unsigned, r6, 1, 0, 1, 4, 2
    atomic add, 0, r7, u6_u7, 0, unsigned, r6, 1, 0, 1, 4, 2
    wait 0
    device_store 0, i32, x, r7, u4_u5, r2, unsigned, 0
done:
    pop_exec r0l, 1
    stop
