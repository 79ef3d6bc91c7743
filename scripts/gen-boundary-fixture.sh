#!/usr/bin/env bash
# Regenerates frontend/gcn/tests/data/dynstr_boundary/boundary.hsaco from boundary.cl and
# checks the condition the fixture exists for: .dynstr ends exactly where .rodata (the kernel
# descriptor) begins. Then prints the values frontend/gcn/tests/loader_boundary.rs expects.
#
# Needs LLVM 14 (apt-get install clang-14 lld-14 llvm-14). If another LLVM lays the file out
# differently the check fails: change the kernel name's length in boundary.cl (the layout
# repeats every 16 characters) until it passes, and update the test's expected values.
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$ROOT/frontend/gcn/tests/data/dynstr_boundary
for tool in clang-14 ld.lld-14 llvm-readelf-14 llvm-objdump-14; do
    command -v "$tool" >/dev/null || { echo "gen-boundary-fixture: $tool not found" >&2; exit 1; }
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

clang-14 -target amdgcn-amd-amdhsa -mcpu=gfx900 -nogpulib -O2 -c "$DIR/boundary.cl" \
    -o "$TMP/boundary.o"
ld.lld-14 -shared "$TMP/boundary.o" -o "$DIR/boundary.hsaco"

# "address size" of a section, from llvm-readelf -S (the "[ N]" column has a blank in it).
section() {
    llvm-readelf-14 -S "$DIR/boundary.hsaco" | sed 's/^ *\[ *[0-9]*\] *//' \
        | awk -v name="$1" '$1 == name { print $3, $5 }'
}
read -r dynstr_addr dynstr_size < <(section .dynstr)
read -r rodata_addr rodata_size < <(section .rodata)
dynstr_end=$((0x$dynstr_addr + 0x$dynstr_size))
if [ "$dynstr_end" -ne $((0x$rodata_addr)) ]; then
    printf 'gen-boundary-fixture: .dynstr ends at %#x, .rodata begins at %#x: adjust the kernel name length\n' \
        "$dynstr_end" $((0x$rodata_addr)) >&2
    exit 1
fi
printf '.dynstr %#x+%#x ends at .rodata %#x (+%#x)\n' $((0x$dynstr_addr)) $((0x$dynstr_size)) \
    $((0x$rodata_addr)) $((0x$rodata_size))

# The expected values of the test.
llvm-readelf-14 -s "$DIR/boundary.hsaco" \
    | awk '$8 ~ /^kernel_name/ { print "symbol", $8, "value", $2, "size", $3 }' | sort -u
llvm-readelf-14 --notes "$DIR/boundary.hsaco" | grep -E '\.(name|kernarg_segment_size|kernarg_segment_align|sgpr_count|vgpr_count|wavefront_size|group_segment_fixed_size|private_segment_fixed_size):'
llvm-objdump-14 -s -j .rodata "$DIR/boundary.hsaco" | grep -E '^ [0-9a-f]{4} '
llvm-objdump-14 -d "$DIR/boundary.hsaco" | grep -F '// 0000'
