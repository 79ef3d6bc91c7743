; Fork/join and the wave clock (tests/asm_fork_clock.rs derives the expected output).
; Each lane writes 8 dwords at out + 32 * global id: the paths it ran (1 = fall-through,
; 2 = fork target), then four s_memtime readings: before the fork, in the fall-through,
; in the target, after the join. The fork's stack entry overwrites s[0:3] (CSP 0), so the
; kernarg address and the group id are copied first.
    s_mov_b32 s44, s2
    s_load_dwordx2 s[20:21], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, 0
    v_cmp_gt_u32 vcc, 40, v0
    s_getreg_b32 s40, hwreg(HW_REG_MODE, 29, 3)
    s_mov_b64 s[42:43], exec
    s_memtime s[24:25]
    s_cbranch_i_fork vcc, target
    v_or_b32 v3, 1, v3
    s_memtime s[26:27]
    s_branch join
target:
    v_or_b32 v3, 2, v3
    s_memtime s[28:29]
join:
    s_cbranch_join s40
    s_mov_b64 exec, s[42:43]
    s_memtime s[30:31]
    s_lshl_b32 s22, s44, 6
    v_add_u32 v4, s22, v0
    v_lshlrev_b32 v4, 5, v4
    v_mov_b32 v6, v3
    v_mov_b32 v7, s24
    v_mov_b32 v8, s26
    v_mov_b32 v9, s28
    v_mov_b32 v10, s30
    v_mov_b32 v11, s25
    v_mov_b32 v12, s31
    v_mov_b32 v13, s40
    global_store_dwordx4 v4, v[6:9], s[20:21]
    global_store_dwordx4 v4, v[10:13], s[20:21] offset:16
    s_endpgm
