; Writes what the launch convention (README "Assembly files") puts in each work-item's
; registers: out[linear global id] = {s2, s3, s4, v0 | v1 << 8 | v2 << 16}, 16 bytes each.
; Arguments: out (buffer), local size x, y, z (u32), global size x, y (u32).
	.globl	ids
ids:
	s_load_dwordx2 s[6:7], s[0:1], 0x0        ; out
	s_load_dwordx4 s[8:11], s[0:1], 0x8       ; lx, ly, lz, gx
	s_load_dword s12, s[0:1], 0x18            ; gy
	s_waitcnt lgkmcnt(0)
	s_mul_i32 s13, s2, s8                     ; group x * lx
	v_add_u32_e32 v3, s13, v0                 ; global x
	s_mul_i32 s13, s3, s9
	v_add_u32_e32 v4, s13, v1                 ; global y
	s_mul_i32 s13, s4, s10
	v_add_u32_e32 v5, s13, v2                 ; global z
	v_mul_lo_u32 v5, v5, s12                  ; z * gy
	v_add_u32_e32 v4, v4, v5                  ; y + gy * z
	v_mul_lo_u32 v4, v4, s11                  ; gx * (y + gy * z)
	v_add_u32_e32 v3, v3, v4                  ; linear id
	v_lshlrev_b32_e32 v3, 4, v3               ; byte offset
	v_mov_b32_e32 v4, s7
	v_add_co_u32_e32 v6, vcc, s6, v3
	v_addc_co_u32_e32 v7, vcc, 0, v4, vcc
	v_lshlrev_b32_e32 v1, 8, v1
	v_lshlrev_b32_e32 v2, 16, v2
	v_or3_b32 v11, v0, v1, v2
	v_mov_b32_e32 v8, s2
	v_mov_b32_e32 v9, s3
	v_mov_b32_e32 v10, s4
	global_store_dwordx4 v[6:7], v[8:11], off
	s_endpgm
