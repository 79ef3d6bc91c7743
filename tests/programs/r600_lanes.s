; llc-14's listing, unchanged, of this OpenCL C kernel (clang-14 -target r600-- -mcpu=cypress,
; tests/fixtures/src/gpu.h for the work-item functions; llc-14 -O2 -mtriple=r600-- -mcpu=cypress):
;
;   __kernel void r600_lanes(__global uint *out, uint k) {
;       uint gid = get_global_id(0);
;       out[gid] = (gid * k) ^ (get_local_id(0) << 8) ^ (get_group_id(0) << 20);
;   }
;
; Arguments: out (a buffer of 4 bytes per work-item), k (u32). Assembles for every VLIW5 chip
; (cedar ... caicos), e.g.
;   wavejit run tests/programs/r600_lanes.s --target cypress --kernel r600_lanes \
;       --global 200 --local 64 --arg zero:800 --arg u32:7 --save 0:out.bin
	.text
	.section	.AMDGPU.config
	.long	166100
	.long	3
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	r600_lanes                      ; -- Begin function r600_lanes
	.p2align	8
	.type	r600_lanes,@function
r600_lanes:                             ; @r600_lanes
r600_lanes$local:
; %bb.0:
	ALU 12, @4, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T1.X, T0.X, 1
	CF_END
	PAD
	ALU clause starting at 4:
	  MULLO_INT * T0.Y, T1.X, KC0[1].Z,  
	  ADD_INT * T0.W, PS, T0.X,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  LSHL   T0.Z, T1.X, literal.x,  
	  LSHL   T2.W, T0.X, literal.y,  BS:VEC_120/SCL_212
	  ADD_INT * T1.W, KC0[2].Y, PV.W,  
	20(2.802597e-44), 8(1.121039e-44)
	  LSHR   T0.X, PS, literal.x,  
	  OR_INT   T1.W, PV.Z, PV.W,  
	  MULLO_INT * T0.Y, T0.W, KC0[2].Z,  
	2(2.802597e-45), 0(0.000000e+00)
	  XOR_INT * T1.X, PV.W, PS,  
.Lfunc_end0:
	.size	r600_lanes, .Lfunc_end0-r600_lanes
                                        ; -- End function
	.section	.AMDGPU.csdata
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack"
