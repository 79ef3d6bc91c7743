; Run with --global 256 --local 128 and one buffer argument of 1024 bytes. Work-item `gid`
; stores gid to buf + 4 * gid if gid < 135, else to 0x70000000 + 4 * gid, which is no buffer
; (guest buffers live at and above 4 GiB). The first faulting work-item is gid 135: group 1,
; wave 0, lane 7, address 0x7000021c, at the global_store_dword (pc 0x40).
	s_load_dwordx2 s[6:7], s[0:1], 0x0        ; buf
	s_lshl_b32 s8, s2, 7                      ; group x * 128
	v_add_u32_e32 v0, s8, v0                  ; gid
	v_lshlrev_b32_e32 v1, 2, v0               ; 4 * gid
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v2, s7
	v_add_co_u32_e32 v3, vcc, s6, v1
	v_addc_co_u32_e32 v4, vcc, 0, v2, vcc     ; buf + 4 * gid
	v_or_b32_e32 v5, 0x70000000, v1
	v_mov_b32_e32 v6, 0                       ; 0x70000000 + 4 * gid
	v_cmp_gt_u32_e32 vcc, 0x87, v0            ; gid < 135
	v_cndmask_b32_e32 v3, v5, v3, vcc
	v_cndmask_b32_e32 v4, v6, v4, vcc
	global_store_dword v[3:4], v0, off
	s_endpgm
