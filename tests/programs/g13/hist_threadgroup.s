; hist_threadgroup: the histogram of hist_device through threadgroup memory: threads lid < 64
; zero the threadgroup's 64 bins, threadgroup_barrier, each thread i < n adds 1 to its bin
; (data[i] >> 5) & 63 by a threadgroup atomic whose old value is its rank: ranks[i] (so the
; ranks of one threadgroup's threads in one bin are 0..count-1), threadgroup_barrier, and
; threads lid < 64 add their bin's count to hist[lid] by a device atomic. Every threadgroup
; has at least 64 threads (local size 128).
; Arguments: data u0_u1, hist u2_u3 (64 u32), ranks u4_u5 (u32 buffers), n u6 (u32).
; wavejit: threadgroup_size 256
    mov_imm r0l, 0
    get_sr r2, sr80 (thread_position_in_grid.x)
    get_sr r3, sr51 (thread_index_in_threadgroup)
    mov_imm r4, 0, 0b0
    if_icmp r0l, ult, r3, 64, 1
    jmp_exec_none pc+zeroed
    threadgroup_store i32, x, r4, 0, r3l
zeroed:
    pop_exec r0l, 1
    threadgroup_barrier
    if_icmp r0l, ult, r2, u6, 1
    jmp_exec_none pc+counted
    device_load 0, i32, x, r5, u0_u1, r2, unsigned
    wait 0
    bfeil r6, 0, r5, 5, mask 0x3F
    mov_imm r7, 1, 0b0
    threadgroup_atomic add, r9, 0, r6l, r7, 0, 2, 128, 0
    device_store 0, i32, x, r9, u4_u5, r2, unsigned, 0
counted:
    pop_exec r0l, 1
    threadgroup_barrier
    if_icmp r0l, ult, r3, 64, 1
    jmp_exec_none pc+done
    threadgroup_load i32, x, r8, 0, r3l
    wait 0
    atomic add, 0, None, u2_u3, r3, unsigned, r8, 1, 0, 1, 4, 2
done:
    pop_exec r0l, 1
    stop
