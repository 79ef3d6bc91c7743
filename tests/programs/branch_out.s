; A branch 0x400 dwords past the end of the code: a guest fault (jump outside the program).
	s_mov_b32 s5, 0
	s_nop 0
	s_branch 0x400
	s_endpgm
