; endless: a loop that never ends; fuel (--fuel) or the wall-clock limit (--timeout) must stop
; it. mov_imm (6 bytes) at 0x0, then the loop: iadd at 0x6 (8 bytes), jmp_exec_any at 0xe.
    mov_imm r2, 0, 0b0
loop:
    iadd r2, r2, 1
    jmp_exec_any pc+loop
    stop
