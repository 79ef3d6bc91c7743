#!/bin/sh
# Regenerates vintrp.tsv (read by tests/isa_vectors.rs) from llvm-mc-14: the parameter
# interpolation instructions, native VINTRP (gfx6-9) and VOP3-encoded (gfx8/9). The main
# generator (scripts/gen-gcn-vectors.sh) writes no candidates for this family.
#
#   cpu<TAB>encoding hex<TAB>text llvm-mc prints for it (-show-encoding; for gfx8/9 the script
#   checks that --disassemble of the bytes prints the same text and fails otherwise)
set -eu
cd "$(dirname "$0")"
MC=${MC:-llvm-mc-14}

native() {
cat <<'EOF2'
v_interp_p1_f32 v1, v0, attr0.x
v_interp_p1_f32 v255, v255, attr63.w
v_interp_p2_f32 v1, v0, attr3.w
v_interp_p2_f32 v7, v9, attr17.y
v_interp_mov_f32 v1, p10, attr2.y
v_interp_mov_f32 v1, p20, attr32.w
v_interp_mov_f32 v3, p0, attr5.z
EOF2
}

vop3() {
cat <<'EOF2'
v_interp_p1_f32_e64 v1, v0, attr0.x
v_interp_p1_f32_e64 v1, -v0, attr63.z clamp div:2
v_interp_p2_f32_e64 v1, v0, attr3.w
v_interp_p2_f32_e64 v5, |v6|, attr9.y mul:4
v_interp_mov_f32_e64 v1, p10, attr2.y
v_interp_mov_f32_e64 v1, p20, attr0.x
v_interp_mov_f32_e64 v1, p0, attr0.x clamp
v_interp_p1ll_f16 v1, v0, attr0.x
v_interp_p1ll_f16 v1, v0, attr0.x high
v_interp_p1ll_f16 v1, |v0|, attr0.x high clamp mul:2
v_interp_p1lv_f16 v1, v0, attr0.x, v2
v_interp_p1lv_f16 v1, v0, attr0.x, s2
v_interp_p1lv_f16 v1, v0, attr12.w, -|v2| high
v_interp_p2_f16 v1, v0, attr0.x, v2
v_interp_p2_f16 v1, -v0, attr0.x, v2 clamp
v_interp_p2_f16 v4, v3, attr1.z, v2 high
EOF2
}

legacy() {
cat <<'EOF2'
v_interp_p2_legacy_f16 v1, v0, attr0.x, v2
v_interp_p2_legacy_f16 v1, v0, attr1.y, v2 high
EOF2
}

cases() {
    for cpu in tahiti bonaire; do native | sed "s/^/$cpu	/"; done
    for cpu in tonga gfx900; do native | sed "s/^/$cpu	/"; vop3 | sed "s/^/$cpu	/"; done
    legacy | sed "s/^/gfx900	/"
}

cases | while IFS='	' read -r cpu text; do
    line=$(printf '%s\n' "$text" | "$MC" -triple=amdgcn-amd-amdhsa -mcpu="$cpu" -show-encoding |
        grep 'encoding:')
    printed=$(printf '%s' "$line" | sed 's/;.*//; s/^[[:space:]]*//; s/[[:space:]]*$//')
    hex=$(printf '%s' "$line" | sed 's/.*encoding: \[//; s/\]//; s/0x//g; s/,//g')
    case $cpu in tonga | gfx900)
        bytes=$(printf '%s' "$hex" | sed 's/\(..\)/0x\1,/g; s/,$//')
        dis=$(printf '%s\n' "$bytes" | "$MC" -triple=amdgcn-amd-amdhsa -mcpu="$cpu" --disassemble |
            grep -v '^[[:space:]]*\.' | head -n 1 | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
        [ "$dis" = "$printed" ] || { echo "$cpu: '$dis' != '$printed'" >&2; exit 1; }
    esac
    printf '%s\t%s\t%s\n' "$cpu" "$hex" "$printed"
done >vintrp.tsv
