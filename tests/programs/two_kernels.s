; Two kernels in one file, declared as llc declares them. `first` stores 1 to buf[0] and
; `second` stores 2; `first` branches over `second`'s entry to the store both share.
; Argument: buf (4 bytes or more).
	.globl	first
	.globl	second
first:
	v_mov_b32_e32 v1, 1
	s_branch store
second:
	v_mov_b32_e32 v1, 2
store:
	s_load_dwordx2 s[6:7], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v2, s6
	v_mov_b32_e32 v3, s7
	global_store_dword v[2:3], v1, off
	s_endpgm
