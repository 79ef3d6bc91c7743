; A kernel that faults: `wavejit disasm` output for this OpenCL C kernel built for cayman (as
; r600_lanes.s says), which stores 7 one million dwords past its buffer argument:
;
;   __kernel void r600_oob_store(__global uint *out) {
;       out[get_global_id(0) + 0x100000] = 7;
;   }
;
; The first faulting work-item is lane 0 of the first wave: its MEM_RAT store (the CF
; instruction at word 1, pc 0x8) writes 4 MiB past the buffer, outside every guest buffer.
; The file has no `.globl`, so its label names the kernel.
r600_oob_store:
	ALU 13, @4, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T1.X, T0.X
	CF_END
	PAD
	ALU clause starting at 4:
	  MULLO_INT   T0.X (MASKED), T1.X, KC0[1].Z,  
	  MULLO_INT   T0.Y, T1.X, KC0[1].Z,  
	  MULLO_INT   T0.Z (MASKED), T1.X, KC0[1].Z,  
	  MULLO_INT * T0.W (MASKED), T1.X, KC0[1].Z,  
	  ADD_INT * T0.W, T0.X, PV.Y,  
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, PV.W, KC0[2].Y,  
	  ADD_INT * T0.W, PV.W, literal.x,  
	4194304(5.877472e-39), 0(0.000000e+00)
	  LSHR * T0.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  MOV * T1.X, literal.x,  
	7(9.809089e-45), 0(0.000000e+00)
