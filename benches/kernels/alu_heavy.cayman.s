	.text
	.section	.AMDGPU.config
	.long	166100
	.long	515
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	alu_heavy                       ; -- Begin function alu_heavy
	.p2align	8
	.type	alu_heavy,@function
alu_heavy:                              ; @alu_heavy
alu_heavy$local:
; %bb.0:
	ALU 5, @16, KC0[CB0:0-32], KC1[]
	TEX 0 @14
	ALU_PUSH_BEFORE 14, @22, KC0[CB0:0-32], KC1[]
	JUMP @11 POP:1
	LOOP_START_DX10 @10
	ALU_PUSH_BEFORE 25, @37, KC0[], KC1[]
	JUMP @9 POP:1
	LOOP_BREAK @9
	POP @9 POP:1
	END_LOOP @5
	POP @11 POP:1
	ALU 9, @63, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	Fetch clause starting at 14:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 16:
	  LSHL * T0.W, T1.X, literal.x,  
	6(8.407791e-45), 0(0.000000e+00)
	  OR_INT * T1.W, PV.W, T0.X,  
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 22:
	  AND_INT * T2.W, T1.W, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  MULLO_INT   T0.X (MASKED), T1.W, literal.x,  
	  MULLO_INT   T0.Y, T1.W, literal.x,  
	  MULLO_INT   T0.Z (MASKED), T1.W, literal.x,  
	  MULLO_INT * T0.W (MASKED), T1.W, literal.x,  
	-1640531535(-9.713105e-21), 0(0.000000e+00)
	  ADD_INT   T0.Y, PV.Y, 1,  
	  SETGE_UINT   T1.Z, T2.W, KC0[3].X,  
	  SETE_INT * T1.W, KC0[2].W, 0.0,  
	  ADD   T1.X, -T0.X, 1.0,  
	  MULADD_IEEE   T1.Y, T0.X, 0.5, 1.0, 
	  MOV   T0.Z, KC0[2].W,  
	  OR_INT * T1.W, PV.Z, PV.W,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 37:
	  LSHL * T1.W, T0.Y, literal.x,  
	13(1.821688e-44), 0(0.000000e+00)
	  XOR_INT * T1.W, PV.W, T0.Y,  
	  LSHR * T2.W, PV.W, literal.x,  
	17(2.382207e-44), 0(0.000000e+00)
	  XOR_INT * T1.W, PV.W, T1.W,  
	  LSHL * T2.W, PV.W, literal.x,  
	5(7.006492e-45), 0(0.000000e+00)
	  XOR_INT * T0.Y, PV.W, T1.W,  
	  AND_INT * T1.W, PV.Y, literal.x,  
	255(3.573311e-43), 0(0.000000e+00)
	  UINT_TO_FLT   T1.Z, PV.W,  
	  FMA * T1.W, T0.X, T1.Y, T1.X, 
	  ADD   T2.Z, PV.W, literal.x,  
	  MUL_IEEE * T2.W, PV.Z, literal.y,  
	1077936128(3.000000e+00), 981668463(1.000000e-03)
	  MULADD_IEEE   T0.X, T1.W, 0.5, PV.W, 
	  MUL_IEEE   T1.Y, T1.Y, literal.x,  
	  ADD_INT   T0.Z, T0.Z, literal.y,  
	  ADD * T2.W, T1.X, literal.z,  
	1065336439(9.990000e-01), -1(nan)
	-1098907648(-2.500000e-01), 0(0.000000e+00)
	  MAX_DX10   T1.X, PV.W, -T1.W,  
	  MIN_DX10   T1.Y, PV.Y, T2.Z,  
	  SETNE_INT * T1.W, PV.Z, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 63:
	  MOV * T0.Z, KC0[2].Y,  
	  ADD   T1.Z, T0.X, T1.Y,  
	  AND_INT * T1.W, T0.Y, literal.x,  
	65535(9.183409e-41), 0(0.000000e+00)
	  UINT_TO_FLT   T2.Z, PV.W,  
	  ADD * T1.W, PV.Z, T1.X,  
	  ADD   T0.X, PV.W, PV.Z,  
	  ADD_INT * T0.W, T0.Z, T0.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	alu_heavy, .Lfunc_end0-alu_heavy
                                        ; -- End function
	.section	.AMDGPU.csdata
	;SQ_PGM_RESOURCES:STACK_SIZE = 2
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack"
