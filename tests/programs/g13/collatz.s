; collatz: steps[i] = the number of Collatz steps (n -> n/2 when even, 3n+1 when odd) that
; take start[i] to 1, for i < count: a divergent loop with per-thread trip counts, as Mesa
; compiles
;     if (i < count) { s = 0; while (true) { if (n == 1) break; s++;
;                      if (n & 1) { n = 3n + 1; continue; } n >>= 1; } steps[i] = s; }
; A loop with a continue is a pair of nested loops: push_exec 2 (the loop sits inside the
; if), break as `mov_imm r0l, 3` and continue as `mov_imm r0l, 2` (each inside one if)
; followed by `pop_exec 0`, the continued threads reactivated by `while_icmp 0 == 0, 2` at the
; end of the body, jmp_exec_any back to its start while any thread is active, pop_exec 2.
; Forward jmp_exec_none skip blocks no thread runs.
; Arguments: start u0_u1 (u32 buffer), steps u2_u3 (u32 buffer), count u4 (u32).
    mov_imm r0l, 0
    get_sr r2, sr80 (thread_position_in_grid.x)
    if_icmp r0l, ult, r2, u4, 1
    jmp_exec_none pc+done
    device_load 0, i32, x, r3, u0_u1, r2, unsigned
    wait 0
    mov_imm r4, 0, 0b0
    push_exec r0l, 2
loop:
    if_icmp r0l, ueq, r3, 1, 1
    jmp_exec_none pc+no_break
    mov_imm r0l, 3
    pop_exec r0l, 0
no_break:
    pop_exec r0l, 1
    jmp_exec_none pc+latch
    iadd r4, r4, 1
    and r5, r3, 1
    if_icmp r0l, ueq, r5, 1, 1
    jmp_exec_none pc+even
    imadd r3, r3, 3, 1
    mov_imm r0l, 2
    pop_exec r0l, 0
even:
    pop_exec r0l, 1
    jmp_exec_none pc+latch
    bfeil r3, 0, r3, 1
latch:
    while_icmp r0l, ueq, 0, 0, 2
    jmp_exec_any pc+loop
    pop_exec r0l, 2
    device_store 0, i32, x, r4, u2_u3, r2, unsigned, 0
done:
    pop_exec r0l, 1
    stop
