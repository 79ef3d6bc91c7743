#!/usr/bin/env bash
# Regenerates every file under tests/fixtures/gcn/ from tests/fixtures/src (OpenCL C kernels)
# and tests/fixtures/host (host drivers that compute the expected outputs).
#
# Needs only LLVM 14 (clang-14, llc-14, ld.lld-14, llvm-objdump-14, llvm-readelf-14,
# llvm-readobj-14), gcc and POSIX tools. Deterministic: running it twice gives identical files.
#
# Output, per kernel K (see tests/fixtures/README.md for the formats):
#   gcn/<chip>/K.hsaco K.s          amdgcn-amd-amdhsa code object v4 and its llc listing
#   gcn/<chip>/K.enc.s              llc -show-mc-encoding listing (gfx6/gfx7 only: no LLVM
#                                   disassembler exists for them, this is their encoding oracle)
#   gcn/<chip>/K.dis                llvm-objdump disassembly (gfx8/gfx9)
#   gcn/legacy-<chip>/K.o K.s ...   the same for the amdgcn-- triple (Clover-style ELF REL)
#   data/K/*.bin                    inputs and expected outputs (every ISA's fixtures use them)
#   manifest.json                   launches, arguments in the CLI's SPEC syntax, comparisons
#   gcn/targets.json                the GCN targets (directories, triples, chips)
#   gcn/<dir>/K.oracle.tsv          loader oracle: "field<TAB>value" read by LLVM's tools
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

# shellcheck source=fixtures/common.sh
. scripts/fixtures/common.sh
OUT=$FX/gcn
HSA_CHIPS="tahiti bonaire hawaii tonga fiji gfx900"
LEGACY_CHIPS="tahiti gfx900"

require_tools regen-fixtures clang-14 llc-14 ld.lld-14 llvm-objdump-14 llvm-readelf-14 \
    llvm-readobj-14 gcc awk

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

rm -rf "$OUT" "$FX/data"
mkdir -p "$OUT" "$FX/data"

# gfx6/gfx7 have no LLVM disassembler; gfx8/gfx9 do.
has_disassembler() { case "$1" in tonga|fiji|gfx900) return 0 ;; *) return 1 ;; esac; }

# compile TRIPLE CPU DIR KERNEL: the pipeline of notes/amd_launch_abi.md §1.
compile() {
    local triple=$1 cpu=$2 dir=$3 k=$4 extra=()
    case $triple in
        amdgcn-amd-amdhsa) extra=(-DGPU_ABI_HSA) ;;
        amdgcn--) extra=(-fintegrated-as) ;;
    esac
    local ll=$TMP/$(basename "$dir").$k.ll
    clang-14 -target "$triple" -mcpu="$cpu" "${extra[@]}" "${CL_FLAGS[@]}" -S -emit-llvm \
        -o "$ll" "$FX/src/$k.cl"
    llc-14 -O2 -mtriple="$triple" -mcpu="$cpu" -o "$dir/$k.s" "$ll"
    if ! has_disassembler "$cpu"; then
        llc-14 -O2 -mtriple="$triple" -mcpu="$cpu" -show-mc-encoding -o "$dir/$k.enc.s" "$ll"
    fi
    if [ "$triple" = amdgcn-amd-amdhsa ]; then
        llc-14 -O2 -mtriple="$triple" -mcpu="$cpu" -filetype=obj -o "$TMP/$k.o" "$ll"
        ld.lld-14 -shared -o "$dir/$k.hsaco" "$TMP/$k.o"
        local bin=$k.hsaco
    else
        llc-14 -O2 -mtriple="$triple" -mcpu="$cpu" -filetype=obj -o "$dir/$k.o" "$ll"
        local bin=$k.o
    fi
    if has_disassembler "$cpu"; then
        (cd "$dir" && llvm-objdump-14 -d --mcpu="$cpu" "$bin") > "$dir/$k.dis"
    fi
}

echo "compiling kernels"
for chip in $HSA_CHIPS; do
    mkdir -p "$OUT/$chip"
    for k in $KERNELS; do compile amdgcn-amd-amdhsa "$chip" "$OUT/$chip" "$k"; done
done
for chip in $LEGACY_CHIPS; do
    mkdir -p "$OUT/legacy-$chip"
    for k in $KERNELS; do compile amdgcn-- "$chip" "$OUT/legacy-$chip" "$k"; done
done

echo "computing expected outputs on the host"
{
    printf '{"kernels": [\n'
    host_kernels "$TMP" "$FX/data" "$FX/data"
    printf '\n]}\n'
} | python3 -m json.tool --indent 2 > "$FX/manifest.json"
{
    printf '{\n  "isa": "gcn",\n  "targets": [\n'
    sep=""
    for chip in $HSA_CHIPS; do
        printf '%s    {"dir": "tests/fixtures/gcn/%s", "triple": "amdgcn-amd-amdhsa", "mcpu": "%s", "ext": "hsaco"}' \
            "$sep" "$chip" "$chip"
        sep=$',\n'
    done
    for chip in $LEGACY_CHIPS; do
        printf '%s    {"dir": "tests/fixtures/gcn/legacy-%s", "triple": "amdgcn--", "mcpu": "%s", "ext": "o"}' \
            "$sep" "$chip" "$chip"
    done
    printf '\n  ]\n}\n'
} | python3 -m json.tool --indent 2 > "$OUT/targets.json"

echo "reading loader oracle values with LLVM's tools"
for chip in $HSA_CHIPS; do
    for k in $KERNELS; do
        d=$OUT/$chip
        { llvm-readelf-14 -h -s "$d/$k.hsaco"; llvm-readobj-14 --notes "$d/$k.hsaco"; cat "$d/$k.s"; } |
            awk -v kernel="$k" -f scripts/fixtures/oracle.awk > "$d/$k.oracle.tsv"
    done
done
for chip in $LEGACY_CHIPS; do
    for k in $KERNELS; do
        d=$OUT/legacy-$chip
        { llvm-readelf-14 -h -s -r "$d/$k.o"; cat "$d/$k.s"; } |
            awk -v kernel="$k" -f scripts/fixtures/oracle.awk > "$d/$k.oracle.tsv"
    done
done

echo "done: $(find "$OUT" -type f | wc -l) files under $OUT"
