#!/bin/sh
# Regenerates regressions.asm.tsv and regressions.dis.tsv (read by tests/isa_regressions.rs)
# from llvm-mc-14: the cases the differential fuzzer found (shared literal, neg on constants
# and special registers, constants written as bit patterns, src_* names).
#
#   asm: cpu<TAB>input<TAB>encoding hex<TAB>text llvm-mc prints for it
#   dis: cpu<TAB>encoding hex<TAB>text llvm-mc --disassemble prints
set -eu
cd "$(dirname "$0")"
MC=${MC:-llvm-mc-14}

asm_cases() {
cat <<'EOF'
gfx900	s_min_i32 s7, 0x284168f9, 0x284168f9
gfx900	s_add_u32 s0, 0x3f800000, s1
gfx900	s_add_u32 s0, 0xffffffff, s1
gfx900	s_add_u32 s0, 0x3118, s1
gfx900	s_mov_b64 s[0:1], 0x3ff00000
gfx900	s_mov_b64 s[0:1], 0xfffffff0
gfx900	s_mov_b32 s0, scc
gfx900	s_mov_b32 s0, execz
gfx900	v_add_f32_e32 v0, 0x3f800000, v1
gfx900	v_add_f32_e32 v0, 0xbf800000, v1
gfx900	v_add_f32_e32 v0, 0x3e22f983, v1
gfx900	v_add_f32_e32 v0, 0x3c00, v1
gfx900	v_add_u32_e32 v0, 0xfffffff0, v1
gfx900	v_add_u32_e32 v0, 0x3f800000, v1
gfx900	v_add_f16_e32 v0, 0xc400, v1
gfx900	v_add_f16_e32 v0, 0xffff, v1
gfx900	v_add_f16_e32 v0, 0x3118, v1
gfx900	v_add_u16_e32 v0, 0xc400, v1
gfx900	v_add_u16_e32 v0, -4.0, v1
gfx900	v_add_u16_e32 v0, 0xfffc, v1
gfx900	v_ceil_f64_e32 v[0:1], 0x3ff00000
gfx900	v_cmp_eq_u64_e32 vcc, 0xffffffff, v[0:1]
gfx900	v_pk_add_f16 v0, 0x3c00, v1
gfx900	v_add_f32_e64 v0, 0x3f800000, v1
gfx900	v_add_f32_e64 v0, neg(13), v1
gfx900	v_add_f32_e64 v0, -13, v1
gfx900	v_add_f32_e64 v0, neg(-13), v1
gfx900	v_add_f32_e64 v0, -|13|, v1
gfx900	v_add_f32_e64 v0, |-13|, v1
gfx900	v_add_f32_e64 v0, neg(1.0), v1
gfx900	v_add_f32_e64 v0, -1.0, v1
gfx900	v_add_f32_e64 v0, neg(-0.5), v1
gfx900	v_add_f32_e64 v0, -exec_lo, v1
gfx900	v_add_f32_e64 v0, -vcc_lo, v1
gfx900	v_add_f32_e64 v0, -m0, v1
gfx900	v_add_f32_e64 v0, |m0|, v1
gfx900	v_add_f32_e64 v0, -|vcc_hi|, v1
gfx900	v_add_f32_e64 v0, -ttmp0, v1
gfx900	v_add_f32_e64 v0, -src_scc, v1
gfx900	v_add_f32_e64 v0, abs(v2), neg(v1)
gfx900	v_add_f64 v[0:1], -vcc, v[2:3]
gfx900	v_add_f64 v[0:1], -|exec|, v[2:3]
gfx900	v_add_f64 v[0:1], -ttmp[2:3], v[2:3]
tonga	v_add_f32_e64 v0, -ttmp0, v1
tonga	v_add_f32_e64 v0, neg(0.15915494), v1
tonga	v_add_f16_e32 v0, 0x3118, v1
tahiti	v_add_f32_e32 v0, 0x3e22f983, v1
tahiti	v_add_f32_e32 v0, 0x3f800000, v1
tahiti	v_add_f32_e64 v0, neg(2), v1
tahiti	v_add_f32_e64 v0, -tma_lo, v1
EOF
}

dis_cases() {
cat <<'EOF'
gfx900	ffff0783f9684128
gfx900	000001d18d020220
gfx900	000001d1cd020220
gfx900	000101d1cd020220
gfx900	000101d18d020200
gfx900	000001d1f2020220
gfx900	000001d1f1020220
gfx900	000001d17e020220
gfx900	000001d17c020220
gfx900	000001d16c020220
gfx900	000001d1fd020220
gfx900	000180d27e040220
gfx900	000080d2f2040220
gfx900	000026d1f7020200
gfx900	000004d2f7020a04
gfx900	00408ad3f8020218
gfx900	00408ad3f2020218
gfx900	00408fd3f7020218
gfx900	fb0080be
gfx900	fc0080be
tonga	000001d170020220
tonga	000026d1f7020200
tonga	000001d1f8020220
EOF
}

asm_cases | while IFS='	' read -r cpu text; do
    line=$(printf '%s\n' "$text" | "$MC" -triple=amdgcn-amd-amdhsa -mcpu="$cpu" -show-encoding |
        grep 'encoding:')
    printed=$(printf '%s' "$line" | sed 's/;.*//; s/^[[:space:]]*//; s/[[:space:]]*$//')
    hex=$(printf '%s' "$line" | sed 's/.*encoding: \[//; s/\]//; s/0x//g; s/,//g')
    printf '%s\t%s\t%s\t%s\n' "$cpu" "$text" "$hex" "$printed"
done >regressions.asm.tsv

dis_cases | while IFS='	' read -r cpu hex; do
    bytes=$(printf '%s' "$hex" | sed 's/\(..\)/0x\1,/g; s/,$//')
    printed=$(printf '%s\n' "$bytes" | "$MC" -triple=amdgcn-amd-amdhsa -mcpu="$cpu" --disassemble 2>/dev/null |
        grep -v '^[[:space:]]*\.' | head -n 1 | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
    printf '%s\t%s\t%s\n' "$cpu" "$hex" "$printed"
done >regressions.dis.tsv
