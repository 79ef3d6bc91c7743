; reduce: sums[g] = the f32 sum of x[i] over the threads i of threadgroup g (x[i] read as 0.0
; for i >= n), by a tree in threadgroup memory: every thread stores its value at tg[lid], then
; for s = 64, 32, ..., 1: threadgroup_barrier; threads lid < s add tg[lid + s] (0.0 where
; lid + s is past this threadgroup's extent, sr8) into tg[lid]. The loop is uniform and holds
; the barrier, so every SIMD-group of the threadgroup (local size 128: four) meets it each
; time. fadd32 rounds once; the inputs are normal and positive.
; Arguments: x u0_u1 (f32 buffer), sums u2_u3 (f32 buffer, one per threadgroup), n u4 (u32).
; wavejit: threadgroup_size 512
    mov_imm r0l, 0
    get_sr r2, sr80 (thread_position_in_grid.x)
    get_sr r3, sr51 (thread_index_in_threadgroup)
    get_sr r9, sr8 (dispatch_threads_per_threadgroup.x)
    mov_imm r4, 0, 0b0
    if_icmp r0l, ult, r2, u4, 1
    jmp_exec_none pc+loaded
    device_load 0, i32, x, r4, u0_u1, r2, unsigned
    wait 0
loaded:
    pop_exec r0l, 1
    threadgroup_store i32, x, r4, 0, r3l
    mov_imm r5, 64, 0b0
loop:
    threadgroup_barrier
    if_icmp r0l, ult, r3, r5, 1
    jmp_exec_none pc+skip
    iadd r6, r3, r5
    threadgroup_load i32, x, r7, 0, r6l
    threadgroup_load i32, x, r8, 0, r3l
    wait 0
    icmpsel ult, r7, r6, r9, r7, 0
    fadd32 r8, r8, r7
    threadgroup_store i32, x, r8, 0, r3l
skip:
    pop_exec r0l, 1
    bfeil r5, 0, r5, 1
    while_icmp r0l, ugt, r5, 0, 1
    jmp_exec_any pc+loop
    pop_exec r0l, 1
    if_icmp r0l, ueq, r3, 0, 1
    jmp_exec_none pc+done
    threadgroup_load i32, x, r8, 0, 0
    wait 0
    get_sr r10, sr0 (threadgroup_position_in_grid.x)
    device_store 0, i32, x, r8, u2_u3, r10, unsigned, 0
done:
    pop_exec r0l, 1
    stop
