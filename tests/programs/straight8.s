; Eight instructions, no branch: every wave executes each of them once. out[local id x] =
; local id x (the later work-groups write the same values again). Arguments: out (a buffer of
; at least 4 * local size x bytes). `run --stats` counts 8 guest instructions per wave.
	s_load_dwordx2 s[6:7], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v2, s7
	v_add_co_u32_e32 v1, vcc, s6, v1
	v_addc_co_u32_e32 v2, vcc, 0, v2, vcc
	global_store_dword v[1:2], v0, off
	s_endpgm
