; Cayman MEM_GDS: every work-item of the dispatch takes a ticket from one counter in GDS.
; GDS_ADD_RET adds 1 to the dword at GDS byte 0 and returns its old value, which the work-item
; stores to out[gid]. GDS is shared by all work-groups and zeroed before each dispatch, so the
; tickets of a dispatch of N work-items are 0 .. N-1, each once; within a wave the lanes take
; theirs in ascending lane order. Argument: out (a buffer of 4 bytes per work-item).
;
; The ALU clause is llc's address computation (see r600_lanes.s); the GDS clause reads its
; address from T1.Z (0) and its operand from T1.W (1) through the source select ZWX.
r600_gds_tickets:
	ALU 11, @6, KC0[CB0:0-32], KC1[]
	GDS 0 @4
	MEM_RAT_CACHELESS STORE_DWORD T5.X, T0.X
	CF_END
	Fetch clause starting at 4:
	  GDS_ADD_RET T5.X___, T1.ZWX, T0
	ALU clause starting at 6:
	  MULLO_INT   T0.X (MASKED), T1.X, KC0[1].Z,  ; group id x * local size x
	  MULLO_INT   T0.Y, T1.X, KC0[1].Z,  
	  MULLO_INT   T0.Z (MASKED), T1.X, KC0[1].Z,  
	  MULLO_INT * T0.W (MASKED), T1.X, KC0[1].Z,  
	  ADD_INT * T0.W, PV.Y, T0.X,                 ; gid
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T1.W, KC0[2].Y, PV.W,             ; out + 4 * gid
	  LSHR   T0.X, PV.W, literal.x,               ; the RAT index: a dword number
	  MOV   T1.Z, 0.0,                            ; GDS address 0
	  MOV * T1.W, 1,                              ; add 1
	2(2.802597e-45), 0(0.000000e+00)
