== sop_gfx9 gfx900
  s_add_u32 s10, s0, s1
  s_cselect_b32 s11, 1, 0
  s_addc_u32 s12, s1, s1
  s_cselect_b32 s13, 1, 0
  s_add_i32 s14, s3, s1
  s_cselect_b32 s15, 1, 0
  s_sub_u32 s16, s1, s0
  s_cselect_b32 s17, 1, 0
  s_min_i32 s18, s0, s1
  s_cselect_b32 s19, 1, 0
  s_bfe_u32 s20, s4, 0x80004
  s_bfe_i32 s21, s4, 0x40008
  s_ff1_i32_b32 s22, s5
  s_flbit_i32_b32 s23, s5
  s_flbit_i32 s24, s0
  s_bcnt1_i32_b32 s25, s4
  s_quadmask_b32 s26, s4
  s_wqm_b32 s27, s5
  s_lshl_b64 s[28:29], s[0:1], 4
  s_brev_b32 s30, s1
  s_bitset1_b32 s31, s1
  s_mul_hi_u32 s32, s0, s0
  s_lshl2_add_u32 s33, s2, s1
  s_cselect_b32 s34, 1, 0
  s_pack_lh_b32_b16 s35, s4, s4
  s_abs_i32 s36, s0
  s_not_b64 s[38:39], s[0:1]
  s_cmpk_lt_i32 s0, 0x0
  s_cselect_b32 s40, 1, 0
  s_movk_i32 s41, 0x8000
  s_bfe_u64 s[42:43], s[4:5], 0x200010
  s_sext_i32_i16 s44, s2
  s_endpgm
== loop_gfx9 gfx900
  s_mov_b32 s0, 0
  s_mov_b32 s1, 1
.Lloop:
  s_add_u32 s0, s0, s1
  s_add_u32 s1, s1, 1
  s_cmp_le_u32 s1, 10
  s_cbranch_scc1 .Lloop
  s_endpgm
== loop_gfx6 tahiti
  s_mov_b32 s0, 0
  s_mov_b32 s1, 1
.Lloop:
  s_add_u32 s0, s0, s1
  s_add_u32 s1, s1, 1
  s_cmp_le_u32 s1, 10
  s_cbranch_scc1 .Lloop
  s_endpgm
== diverge_gfx9 gfx900
  v_mov_b32 v1, 0
  v_cmp_gt_u32 vcc, 32, v0
  s_mov_b64 s[2:3], vcc
  s_and_saveexec_b64 s[0:1], vcc
  s_cbranch_execz .Lskip
  v_add_u32 v1, 0x64, v1
.Lskip:
  s_andn2_b64 exec, s[0:1], exec
  v_add_u32 v1, 7, v1
  s_mov_b64 exec, s[0:1]
  v_add_u32 v1, 0x3e8, v1
  s_endpgm
== valu_f32_gfx9 gfx900
  v_mul_f32 v2, v0, v1
  v_mad_f32 v3, v0, v1, v4
  v_fma_f32 v5, v0, v1, v4
  v_max_f32 v6, v0, v1
  v_add_f32_e64 v7, v0, v1 clamp
  v_mul_f32_e64 v8, v0, v1 mul:2
  v_sub_f32_e64 v9, -v0, |v1|
  v_cvt_i32_f32 v10, v0
  v_min_f32 v11, v0, v1
  v_med3_f32 v12, v0, v1, v4
  v_mac_f32 v13, v0, v1
  s_endpgm
== valu_f32_gfx6 tahiti
  v_mul_legacy_f32 v2, v0, v1
  v_mad_legacy_f32 v3, v0, v1, v4
  v_min_legacy_f32 v6, v0, v1
  v_mac_f32 v13, v0, v1
  v_mad_f32 v5, v0, v1, v4
  s_endpgm
== valu_int_gfx9 gfx900
  v_mul_lo_u32 v2, v0, v1
  v_mul_hi_u32 v3, v0, v1
  v_mad_u64_u32 v[4:5], s[0:1], v0, v1, v[6:7]
  v_bfe_u32 v8, v0, 4, 8
  v_alignbit_b32 v9, v0, v1, 8
  v_mbcnt_lo_u32_b32 v10, -1, 0
  v_mbcnt_hi_u32_b32 v10, -1, v10
  v_add_co_u32 v11, vcc, v0, v1
  v_addc_co_u32 v12, vcc, 0, v13, vcc
  v_cndmask_b32 v14, v0, v1, vcc
  v_lshlrev_b64 v[16:17], 4, v[0:1]
  v_readlane_b32 s2, v0, 5
  v_readfirstlane_b32 s3, v0
  v_writelane_b32 v18, s4, 5
  v_ffbh_u32 v19, v0
  v_med3_i32 v20, v0, v1, 0
  v_perm_b32 v21, v0, v1, v22
  v_cmp_lt_u32 s[6:7], v0, v1
  v_cmpx_ne_u32 s[8:9], 0, v0
  v_mov_b32 v23, 77
  s_endpgm
== valu_int_gfx6 tahiti
  v_add_i32 v11, vcc, v0, v1
  v_addc_u32 v12, vcc, 0, v13, vcc
  v_lshl_b64 v[16:17], v[0:1], 4
  v_mbcnt_lo_u32_b32 v10, -1, 0
  v_mbcnt_hi_u32_b32 v10, -1, v10
  v_readlane_b32 s2, v0, 5
  v_bfm_b32 v8, 4, 8
  v_bcnt_u32_b32 v9, v0, 1
  s_endpgm
== dpp_sdwa_gfx9 gfx900
  v_mov_b32_dpp v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v3, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
  v_add_u32_dpp v4, v0, v1 row_shl:2 row_mask:0xf bank_mask:0xf bound_ctrl:0
  v_mov_b32_sdwa v5, v0 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1
  v_add_u32_sdwa v6, v0, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_0
  v_mov_b32_dpp v7, v0 row_bcast:15 row_mask:0xa bank_mask:0xf
  v_or_b32_sdwa v8, sext(v0), v13 dst_sel:BYTE_2 dst_unused:UNUSED_SEXT src0_sel:BYTE_0 src1_sel:DWORD
  v_mov_b32_dpp v9, v0 row_mirror row_mask:0x5 bank_mask:0x3
  s_endpgm
== mem_global_gfx9 gfx900
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_load_dword s6, s[0:1], 0x8
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 2, v0
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v2, s6, v2
  global_store_dword v1, v2, s[4:5] offset:256
  v_mov_b32 v3, 1
  global_atomic_add v4, v1, v3, s[4:5] offset:512 glc
  global_load_ushort v5, v1, s[4:5] offset:2
  global_load_sbyte v6, v1, s[4:5] offset:3
  global_load_short_d16_hi v5, v1, s[4:5]
  s_endpgm
== mem_flat_gfx7 bonaire
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_load_dword s6, s[0:1], 0x2
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 2, v0
  v_mov_b32 v2, s5
  v_add_i32 v1, vcc, s4, v1
  v_addc_u32 v2, vcc, 0, v2, vcc
  flat_load_dword v3, v[1:2]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_add_i32 v3, vcc, s6, v3
  flat_store_dword v[1:2], v3
  flat_atomic_add v4, v[1:2], v3 glc
  s_endpgm
== mubuf_addr64_gfx6 tahiti
  s_mov_b32 s6, 0
  s_mov_b32 s7, 0xf000
  v_lshlrev_b32 v1, 2, v0
  v_mov_b32 v2, 0
  buffer_load_dword v3, v[1:2], s[4:7], 0 addr64
  s_waitcnt vmcnt(0)
  v_add_i32 v3, vcc, 1, v3
  buffer_store_dword v3, v[1:2], s[4:7], 0 addr64 offset:256
  s_endpgm
== mubuf_range_gfx9 gfx900
  v_lshlrev_b32 v1, 2, v0
  buffer_load_dword v2, v1, s[4:7], 0 offen
  buffer_store_dword v0, v1, s[8:11], s12 offen offset:4
  buffer_load_dwordx2 v[4:5], v1, s[4:7], 0 offen offset:32
  v_mov_b32 v6, 5
  buffer_atomic_add v6, v1, s[4:7], 0 offen glc
  s_endpgm
== mubuf_scratch_gfx8 tonga
  buffer_store_dword v0, off, s[0:3], s4 offset:8
  buffer_store_dword v1, v2, s[0:3], s4 offen
  s_waitcnt vmcnt(0)
  buffer_load_dword v3, off, s[0:3], s4 offset:8
  s_endpgm
== ds_gfx9 gfx900
  v_lshlrev_b32 v1, 2, v0
  ds_write_b32 v1, v0
  ds_write2st64_b32 v1, v0, v2 offset0:4 offset1:8
  s_waitcnt lgkmcnt(0)
  ds_read2_b32 v[4:5], v1 offset1:1
  ds_add_u32 v1, v3
  ds_add_rtn_u32 v6, v1, v3
  ds_read_b32 v7, v1
  ds_swizzle_b32 v8, v0 offset:swizzle(SWAP,16)
  ds_bpermute_b32 v9, v10, v0
  ds_read_u8 v11, v1 offset:1
  v_lshlrev_b32 v16, 3, v0
  ds_write_b64 v16, v[12:13] offset:2048
  ds_read_b64 v[14:15], v16 offset:2048
  s_endpgm
== smem_gfx6 tahiti
  s_load_dwordx2 s[4:5], s[0:1], 0x2
  s_mov_b32 s8, 12
  s_load_dword s6, s[0:1], s8
  s_buffer_load_dwordx2 s[12:13], s[16:19], 0x3
  s_waitcnt lgkmcnt(0)
  s_endpgm
== branch_gfx8 tonga
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc0 .Lnz
  s_mov_b32 s1, 11
  s_branch .Lend
.Lnz:
  s_mov_b32 s1, 22
  s_barrier
  s_mov_b32 s2, 33
.Lend:
  s_endpgm
  s_nop 0
  s_nop 0
== setreg_gfx9 gfx900
  v_mul_f32 v2, v0, v1
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
  v_mul_f32 v3, v0, v1
  s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 10)
  s_endpgm
== badjump_gfx9 gfx900
  s_branch 100
== vccz_gfx8 tonga
  v_cmp_eq_u32 vcc, 3, v0
  s_cbranch_vccz .Lz
  s_mov_b32 s0, 1
  s_endpgm
.Lz:
  s_mov_b32 s0, 2
  s_endpgm
== valu_misc_gfx8 tonga
  v_madmk_f32 v2, v0, 0x40000000, v1
  v_madak_f32 v3, v0, v1, 0x3f800000
  v_subrev_f32 v4, v0, v1
  v_lshlrev_b32 v5, v0, v1
  v_add_f64 v[6:7], v[8:9], 2.0
  v_add_u16 v10, v0, v1
  v_mul_f16 v11, 0.5, v1
  v_cmp_class_f32_e64 s[6:7], v0, v12
  v_cvt_f32_ubyte2 v13, v0
  v_bfi_b32 v14, v0, v1, v12
  v_alignbyte_b32 v15, v0, v1, 3
  v_sad_u8 v16, v0, v1, v12
  v_max3_u32 v17, v0, v1, v12
  v_min3_i32 v18, v0, v1, v12
  v_mul_i32_i24 v19, v0, v1
  v_mul_hi_i32_i24 v20, v0, v1
  v_bcnt_u32_b32 v21, v0, v12
  v_ashrrev_i64 v[22:23], 36, v[0:1]
  v_cvt_f64_i32 v[24:25], v0
  v_cvt_i32_f64 v26, v[8:9]
  v_trunc_f32 v27, v1
  v_floor_f32 v28, v1
  v_ceil_f32 v29, v1
  v_rndne_f32 v30, v1
  v_ldexp_f32 v31, v1, 3
  v_sub_u16_e64 v32, v0, v1 clamp
  v_add_u32_e64 v33, s[4:5], v0, v1 clamp
  v_cmpx_lt_i32 vcc, v0, v12
  v_mov_b32 v34, 0x1234
  s_endpgm
== valu_16_gfx9 gfx900
  v_mad_u16 v16, v0, v1, v17 op_sel:[1,0,0,1]
  v_pack_b32_f16 v18, v0, v1 op_sel:[1,1,0]
  v_add_i16 v19, v0, v1 clamp
  v_add_u32_e64 v20, v0, v1 clamp
  v_sub_co_u32_e64 v21, s[4:5], v0, v1 clamp
  v_mad_u32_u16 v22, v0, v1, v12 op_sel:[0,1,0]
  v_add3_u32 v23, v0, v1, v12
  v_lshl_or_b32 v24, v0, 4, v1
  v_xad_u32 v25, v0, v1, v12
  v_med3_u16 v26, v0, v1, v12 op_sel:[0,0,0,1]
  v_pk_add_u16 v27, v0, v1 op_sel_hi:[0,1]
  v_pk_mul_lo_u16 v28, v0, v1
  v_pk_lshlrev_b16 v29, 3, v1
  v_mov_b32_e32 v30, 0x3c00
  v_add_f16 v30, 1.0, v30
  s_endpgm
== valu_rare_gfx7 bonaire
  v_mullit_f32 v10, v0, v1, v2
  v_mqsad_u32_u8 v[12:15], v[4:5], v6, v[20:23]
  // v_mqsad_u32_u8 v[16:19], v[4:5], v6, -1 and v[24:27], ..., 5 (llvm-mc rejects constants)
  .long 0xd2ea0010, 0x03060d04
  .long 0xd2ea0018, 0x02160d04
  s_endpgm
== valu_rare_gfx9 gfx900
  v_screen_partition_4se_b32 v20, v0
  v_screen_partition_4se_b32 v21, v1
  v_screen_partition_4se_b32_e64 v22, v2
  v_screen_partition_4se_b32 v23, v3
  s_endpgm
== ds_ext_gfx9 gfx900
  ds_wrxchg2_rtn_b32 v[2:3], v1, v10, v11 offset0:1 offset1:80
  ds_wrxchg2st64_rtn_b64 v[4:7], v40, v[12:13], v[14:15] offset0:1 offset1:2
  s_mov_b32 m0, 0xc00
  ds_write_addtid_b32 v16 offset:16
  ds_read_addtid_b32 v17
  ds_append v18 offset:3400
  ds_consume v19 offset:3404
  ds_add_src2_u32 v41 offset:64
  ds_write_src2_b64 v42 offset:32768
  ds_max_src2_f32 v43 offset:64
  ds_permute_b32 v24, v44, v25 offset:4
  s_waitcnt lgkmcnt(0)
  s_endpgm
== ds_atomic_ext_gfx7 bonaire
  ds_rsub_rtn_u32 v2, v1, v10
  ds_mskor_rtn_b32 v3, v1, v11, v12 offset:256
  ds_wrap_rtn_b32 v4, v1, v13, v14 offset:512
  ds_cmpst_rtn_f32 v5, v1, v15, v16 offset:768
  ds_cmpst_f64 v20, v[22:23], v[24:25]
  ds_condxchg32_rtn_b64 v[6:7], v21, v[26:27]
  ds_rsub_src2_u32 v30 offset:64
  s_waitcnt lgkmcnt(0)
  s_endpgm
== mubuf_float_atomics_gfx7 bonaire
  buffer_atomic_fcmpswap v[40:41], v42, s[0:3], 0 offen glc
  buffer_atomic_fmin v43, v42, s[0:3], 0 offen offset:256 glc
  buffer_atomic_fmax_x2 v[44:45], v46, s[0:3], 0 offen offset:512 glc
  s_waitcnt vmcnt(0)
  s_endpgm
== mtbuf_formats_gfx9 gfx900
  tbuffer_load_format_xy v[0:1], v2, s[4:7], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_SINT] offen
  tbuffer_load_format_xyzw v[4:7], v2, s[4:7], 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_USCALED] offen offset:256
  tbuffer_load_format_xy v[8:9], v2, s[4:7], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] offen offset:512
  tbuffer_load_format_xyz v[10:12], v2, s[4:7], 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_SSCALED] offen offset:768
  tbuffer_store_format_xy v[14:15], v2, s[8:11], 0 format:[BUF_DATA_FORMAT_8_8,BUF_NUM_FORMAT_UINT] offen
  tbuffer_store_format_x v16, v2, s[8:11], 0 format:[BUF_DATA_FORMAT_16,BUF_NUM_FORMAT_SINT] offen offset:256
  s_waitcnt vmcnt(0)
  s_endpgm
== setreg_reg_gfx9 gfx900
  v_mul_f32 v2, v0, v1
  s_movk_i32 s1, 0x3
  s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s1
  v_mul_f32 v3, v0, v1
  s_mov_b32 s2, 0
  s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s2
  v_mul_f32 v4, v0, v1
  s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 10)
  s_endpgm
== setreg_dynamic_gfx9 gfx900
  s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s1
  s_endpgm
