#!/usr/bin/env bash
# Regenerates every file under tests/fixtures/terascale/ from tests/fixtures/src (the same
# OpenCL C kernels as the GCN fixtures) for the r600-- triple.
#
# Needs LLVM 14 (clang-14, llc-14, llvm-readelf-14), gcc and POSIX tools, and an up-to-date
# tests/fixtures/data (scripts/regen-fixtures.sh): the expected outputs are the GCN ones,
# because the launches are the same; this script rebuilds them and fails if they differ.
# Deterministic: running it twice gives identical files.
#
# Output, per chip C and kernel K (see tests/fixtures/README.md):
#   terascale/C/K.o            llc -filetype=obj (ELF32 REL, EM_AMDGPU, e_flags = chip)
#   terascale/C/K.s            llc listing
#   terascale/C/K.enc.s        llc -show-mc-encoding listing (no r600 disassembler exists)
#   terascale/C/K.oracle.tsv   loader oracle: "field<TAB>value" read by llvm-readelf-14
#   terascale/missing.tsv      "chip<TAB>kernel<TAB>llc error" for each kernel a chip cannot compile
#   terascale/targets.json     the TeraScale targets (with their missing kernels); the kernels
#                              are those of tests/fixtures/manifest.json
#   terascale/abi/C/args_probe.s  llc listing of terascale/args_probe.cl (the only hand-written
#                              file here): where each kind of kernel argument is read from
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

# shellcheck source=fixtures/common.sh
. scripts/fixtures/common.sh
OUT=$FX/terascale
CHIPS="cayman cypress juniper redwood barts"

require_tools regen-terascale-fixtures clang-14 llc-14 llvm-readelf-14 gcc awk diff

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

find "$OUT" -mindepth 1 -maxdepth 1 ! -name args_probe.cl -exec rm -rf {} +

# compile CHIP KERNEL: the pipeline of notes/amd_launch_abi.md §1 for r600--. Returns non-zero,
# with llc's first error line in $TMP/error and no files left behind, if llc rejects the kernel.
compile() {
    local cpu=$1 k=$2 dir=$OUT/$1
    local ll=$TMP/$cpu.$k.ll
    clang-14 -target r600-- -mcpu="$cpu" -DGPU_ARCH_R600 "${CL_FLAGS[@]}" -S -emit-llvm \
        -o "$ll" "$FX/src/$k.cl"
    if ! llc-14 -O2 -mtriple=r600-- -mcpu="$cpu" -filetype=obj -o "$dir/$k.o" "$ll" \
        2>"$TMP/llc.err"; then
        grep -m1 'error' "$TMP/llc.err" | sed 's/[[:space:]]*$//' > "$TMP/error"
        rm -f "$dir/$k.o"
        return 1
    fi
    llc-14 -O2 -mtriple=r600-- -mcpu="$cpu" -o "$dir/$k.s" "$ll"
    llc-14 -O2 -mtriple=r600-- -mcpu="$cpu" -show-mc-encoding -o "$dir/$k.enc.s" "$ll"
    { llvm-readelf-14 -h -S -s "$dir/$k.o"; llvm-readelf-14 -x .AMDGPU.config "$dir/$k.o"
      cat "$dir/$k.s"; } | awk -v kernel="$k" -f scripts/fixtures/terascale-oracle.awk \
        > "$dir/$k.oracle.tsv"
}

echo "compiling kernels"
: > "$OUT/missing.tsv"
for chip in $CHIPS; do
    mkdir -p "$OUT/$chip"
    for k in $KERNELS; do
        if ! compile "$chip" "$k"; then
            printf '%s\t%s\t%s\n' "$chip" "$k" "$(cat "$TMP/error")" >> "$OUT/missing.tsv"
        fi
    done
done

echo "compiling the argument-layout probe"
for chip in $CHIPS; do
    mkdir -p "$OUT/abi/$chip"
    clang-14 -target r600-- -mcpu="$chip" -x cl -cl-std=CL1.2 -O2 -ffp-contract=off -nogpulib \
        -S -emit-llvm -o "$TMP/args_probe.ll" "$OUT/args_probe.cl"
    llc-14 -O2 -mtriple=r600-- -mcpu="$chip" -o "$OUT/abi/$chip/args_probe.s" "$TMP/args_probe.ll"
done

echo "checking the host-computed expected outputs against tests/fixtures/data"
host_kernels "$TMP" "$TMP/data" "$FX/data" > /dev/null
if ! diff -r "$TMP/data" "$FX/data" >/dev/null; then
    echo "regen-terascale-fixtures: $FX/data is stale; run scripts/regen-fixtures.sh" >&2
    exit 1
fi

{
    printf '{\n  "isa": "terascale",\n  "targets": [\n'
    sep=""
    for chip in $CHIPS; do
        missing=$(awk -F '\t' -v c="$chip" '$1 == c { printf "%s\"%s\"", n++ ? ", " : "", $2 }' \
            "$OUT/missing.tsv")
        printf '%s    {"dir": "tests/fixtures/terascale/%s", "triple": "r600--", "mcpu": "%s", "ext": "o", "missing": [%s]}' \
            "$sep" "$chip" "$chip" "$missing"
        sep=$',\n'
    done
    printf '\n  ]\n}\n'
} | python3 -m json.tool --indent 2 > "$OUT/targets.json"

echo "done: $(find "$OUT" -type f | wc -l) files under $OUT"
