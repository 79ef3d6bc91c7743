; Every work-item stores 1.0 * x to buf[0], where x = 0x00000001 is the smallest positive f32
; denormal: the product is x when f32 denormals are kept (the default FLOAT_MODE 0xf0) and
; +0 when they are flushed (`; wavejit: float_mode 0xc0`). Argument: buf (4 bytes or more).
	s_load_dwordx2 s[6:7], s[0:1], 0x0
	v_mov_b32_e32 v1, 1
	v_mul_f32_e32 v1, 1.0, v1
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v2, s6
	v_mov_b32_e32 v3, s7
	global_store_dword v[2:3], v1, off
	s_endpgm
