	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx802"
	.protected	alu_heavy               ; -- Begin function alu_heavy
	.globl	alu_heavy
	.p2align	8
	.type	alu_heavy,@function
alu_heavy:                              ; @alu_heavy
; %bb.0:
	s_load_dwordx4 s[8:11], s[4:5], 0x0
	s_load_dwordx2 s[2:3], s[4:5], 0x10
	s_lshl_b32 s0, s6, 6
	v_or_b32_e32 v0, s0, v0
	v_mov_b32_e32 v1, 0
	v_lshlrev_b64 v[2:3], 2, v[0:1]
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v4, s11
	v_add_u32_e32 v2, vcc, s10, v2
	v_addc_u32_e32 v3, vcc, v4, v3, vcc
	flat_load_dword v4, v[2:3]
	s_mov_b32 s0, 0x9e3779b1
	v_mul_lo_u32 v2, v0, s0
	v_and_b32_e32 v3, 3, v0
	s_cmp_lg_u32 s2, 0
	v_cmp_gt_u32_e32 vcc, s3, v3
	v_add_u32_e64 v2, s[0:1], 1, v2
	s_cselect_b64 s[0:1], -1, 0
	s_and_b64 s[4:5], vcc, s[0:1]
	s_waitcnt vmcnt(0)
	v_mad_f32 v5, v4, 0.5, 1.0
	v_sub_f32_e32 v3, 1.0, v4
	s_and_saveexec_b64 s[0:1], s[4:5]
	s_cbranch_execz .LBB0_2
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
	v_fma_f32 v6, v4, v5, v3
	v_mul_f32_e32 v4, 0x3f7fbe77, v5
	v_lshlrev_b32_e32 v5, 13, v2
	v_add_f32_e32 v7, 0x40400000, v6
	v_xor_b32_e32 v2, v5, v2
	v_min_f32_e32 v5, v4, v7
	v_lshrrev_b32_e32 v4, 17, v2
	v_xor_b32_e32 v2, v4, v2
	v_lshlrev_b32_e32 v4, 5, v2
	v_xor_b32_e32 v2, v4, v2
	v_cvt_f32_ubyte0_e32 v4, v2
	v_add_f32_e32 v3, 0xbe800000, v3
	s_add_i32 s2, s2, -1
	v_mul_f32_e32 v4, 0x3a83126f, v4
	v_max_f32_e64 v3, v3, -v6
	s_cmp_lg_u32 s2, 0
	v_mac_f32_e32 v4, 0.5, v6
	s_cbranch_scc1 .LBB0_1
.LBB0_2:                                ; %Flow15
	s_or_b64 exec, exec, s[0:1]
	v_cvt_f32_u32_sdwa v2, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0
	v_add_f32_e32 v4, v4, v5
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	v_add_f32_e32 v3, v4, v3
	v_add_f32_e32 v2, v3, v2
	v_mov_b32_e32 v3, s9
	v_add_u32_e32 v0, vcc, s8, v0
	v_addc_u32_e32 v1, vcc, v3, v1, vcc
	flat_store_dword v[0:1], v2
	s_endpgm
	.section	.rodata,#alloc
	.p2align	6
	.amdhsa_kernel alu_heavy
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 94
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 0
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	alu_heavy, .Lfunc_end0-alu_heavy
                                        ; -- End function
	.section	.AMDGPU.csdata
; Kernel info:
; codeLenInByte = 300
; NumSgprs: 96
; NumVgprs: 8
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 192
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 11
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 96
; NumVGPRsForWavesPerEU: 8
; Occupancy: 8
; WaveLimiterHint : 1
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack"
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
      - .address_space:  global
        .is_const:       true
        .offset:         8
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
      - .offset:         16
        .size:           4
        .type_name:      uint
        .value_kind:     by_value
      - .offset:         20
        .size:           4
        .type_name:      uint
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 1
      - 2
    .max_flat_workgroup_size: 64
    .name:           alu_heavy
    .private_segment_fixed_size: 0
    .reqd_workgroup_size:
      - 64
      - 1
      - 1
    .sgpr_count:     96
    .sgpr_spill_count: 0
    .symbol:         alu_heavy.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx802
amdhsa.version:
  - 1
  - 1
...

	.end_amdgpu_metadata
