; One wave for `wavejit wave` (README "wavejit wave"): with v0 = the lane index,
;   s6 = the dword at s[4:5];
;   v2 = v0 + v1 and v3 = v2 * s6 in the lanes of exec;
;   the dword at s[8:9] + 4 * v0 = v3 for the lanes of exec.
	s_load_dword s6, s[4:5], 0x0
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v2, v0, v1
	v_mul_lo_u32 v3, v2, s6
	v_lshlrev_b32_e32 v4, 2, v0
	v_mov_b32_e32 v5, s9
	v_add_co_u32_e32 v4, vcc, s8, v4
	v_addc_co_u32_e32 v5, vcc, 0, v5, vcc
	global_store_dword v[4:5], v3, off
	s_endpgm
