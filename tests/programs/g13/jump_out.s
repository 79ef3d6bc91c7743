; jump_out: threads i < u0 stay active through the if, so jmp_exec_any (pc 0xe) jumps 4096
; bytes forward, past the end of the code (0x1c bytes): a guest fault at the jump when any
; thread is active (u0 > 0), and nothing at all when none is (u0 = 0).
; Arguments: u0 (u32).
    mov_imm r0l, 0
    get_sr r2, sr80 (thread_position_in_grid.x)
    if_icmp r0l, ult, r2, u0, 1
    jmp_exec_any pc+4096
    pop_exec r0l, 1
    stop
