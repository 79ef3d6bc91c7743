; matmul: C = A B for row-major f32 matrices A (M x K), B (K x N), C (M x N), in 8 x 8 tiles
; staged in threadgroup memory (local size 8,8: two SIMD-groups): thread (x, y) = (col, row)
; of the grid; for k0 = 0, 8, ... while k0 < K: As[ty][tx] = A[row][k0 + tx] and
; Bs[ty][tx] = B[k0 + ty][col] (0.0 outside A or B), threadgroup_barrier, acc = fmadd32(As[ty][k],
; Bs[k][tx], acc) for k = 0..7 in order, threadgroup_barrier. C[row][col] = acc where row < M
; and col < N. The grid covers whole threadgroups (the host rounds it up to multiples of 8).
; Threadgroup memory: As at byte 0, Bs at byte 256.
; Arguments: A u0_u1, B u2_u3, C u4_u5 (f32 buffers), M u6, N u8, K u10 (u32).
; wavejit: threadgroup_size 512
    mov_imm r0l, 0
    get_sr r2, sr80 (thread_position_in_grid.x)
    get_sr r3, sr81 (thread_position_in_grid.y)
    get_sr r4, sr48 (thread_position_in_threadgroup.x)
    get_sr r5, sr49 (thread_position_in_threadgroup.y)
    imadd r6, r5, 8, r4
    iadd r7, r6, 64
    imadd r20, r3, u10, 0
    imadd r18, r5, 32, 0
    iadd r19, r4, 64
    iadd r19, 0, r19, lsl 2
    mov_imm r8, 0, 0b0
    mov_imm r9, 0, 0b0
tile:
    iadd r10, r9, r4
    mov_imm r12, 0, 0b0
    icmpsel ult, r11, r3, u6, r10, u10
    if_icmp r0l, ult, r11, u10, 1
    jmp_exec_none pc+a_done
    iadd r13, r20, r10
    device_load 0, i32, x, r12, u0_u1, r13, unsigned
    wait 0
a_done:
    pop_exec r0l, 1
    threadgroup_store i32, x, r12, 0, r6l
    iadd r14, r9, r5
    mov_imm r15, 0, 0b0
    icmpsel ult, r16, r2, u8, r14, u10
    if_icmp r0l, ult, r16, u10, 1
    jmp_exec_none pc+b_done
    imadd r17, r14, u8, r2
    device_load 0, i32, x, r15, u2_u3, r17, unsigned
    wait 0
b_done:
    pop_exec r0l, 1
    threadgroup_store i32, x, r15, 0, r7l
    threadgroup_barrier
    threadgroup_load i32, xyzw, r21_r22_r23_r24, r18l, 0
    threadgroup_load i32, xyzw, r25_r26_r27_r28, r18l, 4
    threadgroup_load i32, x, r29, r19l, 0
    threadgroup_load i32, x, r30, r19l, 8
    threadgroup_load i32, x, r31, r19l, 16
    threadgroup_load i32, x, r32, r19l, 24
    threadgroup_load i32, x, r33, r19l, 32
    threadgroup_load i32, x, r34, r19l, 40
    threadgroup_load i32, x, r35, r19l, 48
    threadgroup_load i32, x, r36, r19l, 56
    wait 0
    fmadd32 r8, r21, r29, r8
    fmadd32 r8, r22, r30, r8
    fmadd32 r8, r23, r31, r8
    fmadd32 r8, r24, r32, r8
    fmadd32 r8, r25, r33, r8
    fmadd32 r8, r26, r34, r8
    fmadd32 r8, r27, r35, r8
    fmadd32 r8, r28, r36, r8
    threadgroup_barrier
    iadd r9, r9, 8
    while_icmp r0l, ult, r9, u10, 1
    jmp_exec_any pc+tile
    pop_exec r0l, 1
    icmpsel ult, r11, r3, u6, r2, u8
    if_icmp r0l, ult, r11, u8, 1
    jmp_exec_none pc+done
    imadd r13, r3, u8, r2
    device_store 0, i32, x, r8, u4_u5, r13, unsigned, 0
done:
    pop_exec r0l, 1
    stop
