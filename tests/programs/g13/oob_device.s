; oob_device: thread gid loads word gid of buf (u0_u1) if gid < u2, else word gid from the
; base 0x70000000, which no buffer holds (guest buffers lie at and above 4 GiB). With 256
; threads in groups of 128 and u2 = 197, the first faulting thread is gid 197: group 1,
; SIMD-group 2, lane 5, address 0x70000314, at the device_load (pc 0x20).
; Arguments: buf u0_u1 (1024 bytes), u2 (u32).
    get_sr r2, sr80 (thread_position_in_grid.x)
    mov_imm r4, 0x70000000, 0b0
    mov_imm r5, 0, 0b0
    icmpsel ult, r6, r2, u2, u0, r4
    icmpsel ult, r7, r2, u2, u1, r5
    device_load 0, i32, x, r8, r6_r7, r2, unsigned
    wait 0
    stop
