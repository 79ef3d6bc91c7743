; Never ends: fuel (--fuel) or the wall-clock limit (--timeout) must stop it.
	s_mov_b32 s5, 0
loop:
	s_add_u32 s5, s5, 1
	s_branch loop
