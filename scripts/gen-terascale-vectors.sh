#!/bin/sh
# Regenerates the TeraScale disassembly test vectors in frontend/terascale/tests/vectors from
# the OpenCL kernels in tests/vectors/src: for every kernel file and chip, clang-14 compiles
# to LLVM IR and llc-14 -march=r600 prints the listing with -show-mc-encoding. The checked-in
# .txt files hold, per function, the listing lines and their encoding bytes; tests decode the
# bytes and compare the printed text line by line (LLVM is not needed at test time).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VEC="$ROOT/frontend/terascale/tests/vectors"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CHIPS="${CHIPS:-cayman cypress juniper redwood barts}"
for src in "$VEC"/src/*.cl; do
  base=$(basename "$src" .cl)
  for chip in $CHIPS; do
    clang-14 -target r600-- -mcpu="$chip" -x cl -cl-std=CL1.2 -cl-no-stdinc -nogpulib -O2 \
      -S -emit-llvm "$src" -o "$TMP/$base.ll"
    llc-14 -march=r600 -mcpu="$chip" "$TMP/$base.ll" -o "$TMP/$base.s"
    llc-14 -march=r600 -mcpu="$chip" -show-mc-encoding "$TMP/$base.ll" -o "$TMP/$base.enc.s"
    # The two listings have the same lines; the plain one holds the exact text (the encoding
    # one pads it to the comment column). Output, per function: "FUNCTION name", then one
    # line per listing line with bytes: "<hex bytes>|<text without the leading tab>".
    awk 'NR == FNR { plain[FNR] = $0; next }
      { text = plain[FNR] }
      text ~ /^[A-Za-z_][A-Za-z0-9_]*:/ && text !~ /\$local/ { split(text, a, ":"); print "FUNCTION " a[1]; infn = 1; next }
      text ~ /^\.Lfunc_end/ { infn = 0; next }
      infn && /; encoding: \[/ {
        enc = $0; sub(/.*; encoding: \[/, "", enc); sub(/\].*/, "", enc); gsub(/0x|,/, "", enc)
        sub(/^\t/, "", text)
        print enc "|" text
      }' "$TMP/$base.s" "$TMP/$base.enc.s" > "$VEC/${base}_${chip}.txt"
    rm -f "$VEC/${base}_${chip}.s"
  done
done
