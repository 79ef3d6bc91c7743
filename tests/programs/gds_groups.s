; Each work-group works in its own GDS window (M0 base = group * 0x200, size 0x1f0): every
; work-item reads its dword before any write (GDS starts zeroed), writes gid * 3 + 1, reads its
; neighbour's dword after a barrier, adds 1 to the group's counter (the window's last dword)
; and reads the counter after another barrier. out[gid] = {first read, neighbour, counter}.
; Argument: out (buffer of 12 bytes per work-item). Work-items whose dword lies past the
; window read 0 and write nothing.
	.globl	gds_groups
gds_groups:
	s_load_dwordx2 s[6:7], s[0:1], 0x0       ; out
	s_lshl_b32 s8, s2, 25                     ; window base = group * 0x200, in M0[31:16]
	s_or_b32 m0, s8, 0x1f0                    ; window size 0x1f0 bytes
	s_lshl_b32 s9, s2, 7                      ; group * 128
	v_add_u32_e32 v1, s9, v0                  ; gid
	v_lshlrev_b32_e32 v2, 2, v0               ; window address = 4 * local id
	v_mad_u32_u24 v3, v1, 3, 1                ; gid * 3 + 1
	ds_read_b32 v4, v2 gds
	ds_write_b32 v2, v3 gds
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b32 v5, v2 offset:4 gds
	s_waitcnt lgkmcnt(0)
	s_barrier
	v_mov_b32_e32 v7, 0x1ec                   ; the counter
	v_mov_b32_e32 v8, 1
	ds_add_u32 v7, v8 gds
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b32 v6, v7 gds
	s_waitcnt lgkmcnt(0)
	v_mul_u32_u24_e32 v9, 12, v1              ; byte offset of out[gid]
	v_mov_b32_e32 v10, s7
	v_add_co_u32_e32 v11, vcc, s6, v9
	v_addc_co_u32_e32 v12, vcc, 0, v10, vcc
	global_store_dwordx3 v[11:12], v[4:6], off
	s_endpgm
