; Parameter interpolation and LDS_DIRECT on data the kernel itself puts in LDS (a compute
; launch fills no parameter area). One wave of 64 work-items; work-item `id` writes LDS dwords
; 4*id .. 4*id+3 with the f32 values n * 0.5 - 100 (n = the dword index), then, with
; I = J = 0.1 * id and M0 = new_prim_mask 0b1010011 << 16 | lds_param_offset 32, stores
; 8 dwords at out + 32 * id:
;   0: v_interp_p1_f32 + v_interp_p2_f32 of attr1.y
;   1: v_interp_mov_f32 p20 of attr0.w
;   2: src_lds_direct (M0 = 0x2000c: the dword at byte 12) + I
;   3: src_lds_direct (M0 = 0x50016: the signed 16-bit word at byte 0x16)
;   4: v_interp_p1ll_f16 of attr0.x, high halves
; Argument: out (2048 bytes).
	s_load_dwordx2 s[6:7], s[0:1], 0x0
	v_lshlrev_b32_e32 v3, 2, v0
	v_cvt_f32_u32_e32 v4, v3
	v_mul_f32_e32 v4, 0.5, v4
	v_subrev_f32_e32 v4, 0x42c80000, v4
	v_add_f32_e32 v5, 0.5, v4
	v_add_f32_e32 v6, 1.0, v4
	v_add_f32_e32 v7, 0x3fc00000, v4
	v_lshlrev_b32_e32 v8, 4, v0
	ds_write2_b32 v8, v4, v5 offset1:1
	ds_write2_b32 v8, v6, v7 offset0:2 offset1:3
	s_waitcnt lgkmcnt(0)
	v_cvt_f32_u32_e32 v9, v0
	v_mul_f32_e32 v9, 0x3dcccccd, v9
	s_mov_b32 m0, 0x530020
	v_interp_p1_f32 v10, v9, attr1.y
	v_interp_p2_f32 v10, v9, attr1.y
	v_interp_mov_f32 v11, p20, attr0.w
	v_interp_p1ll_f16 v14, v9, attr0.x high
	s_mov_b32 m0, 0x2000c
	v_add_f32_e32 v12, src_lds_direct, v9
	s_mov_b32 m0, 0x50016
	v_mov_b32_e32 v13, src_lds_direct
	v_lshlrev_b32_e32 v15, 5, v0
	global_store_dwordx4 v15, v[10:13], s[6:7]
	global_store_dword v15, v14, s[6:7] offset:16
	s_endpgm
