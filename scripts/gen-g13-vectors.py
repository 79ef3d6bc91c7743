#!/usr/bin/env python3
"""Writes frontend/g13/tests/data/applegpu-vectors.tsv: instructions of every form of the
table, each with the text applegpu.py (dougallj/applegpu) disassembles it to.

Usage: scripts/gen-g13-vectors.py APPLEGPU_DIR [COMMIT] > frontend/g13/tests/data/applegpu-vectors.tsv

APPLEGPU_DIR holds applegpu.py, fma.py and srgb.py (as for gen-g13-table.py). For each
instruction descriptor, in table order, the script draws 24 words (seeded, so the file is
reproducible): the descriptor's constant bits, random bits in its fields and
its length bit, zeros elsewhere,
cut to the length the length bit gives. A word that an earlier descriptor matches is skipped
(it is that descriptor's instruction). Each line is

    ROW <tab> BYTES <tab> TEXT

ROW the index of the matching descriptor (the row of frontend/g13/src/table/rows.rs), BYTES
the instruction in hex, TEXT what applegpu.py's disassembler prints for it at pc 0x100, with
runs of spaces after the mnemonic collapsed to one; or `!` and the exception's name when
applegpu.py itself fails on the word (it asserts on some field values). Nothing but the
printed text is taken from applegpu.py.
"""
import contextlib
import io
import random
import re
import subprocess
import sys

root = sys.argv[1]
sys.path.insert(0, root)
import applegpu  # noqa: E402


def head_commit(path):
    try:
        return subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


commit = sys.argv[2] if len(sys.argv) > 2 else head_commit(root)
descs = applegpu.instruction_descriptors
rng = random.Random(13)


def first_match(n):
    for i, d in enumerate(descs):
        if d.matches(n):
            return i, d
    return None, None


print(f"# applegpu.py commit {commit}; scripts/gen-g13-vectors.py; ROW, BYTES, TEXT")
for i, d in enumerate(descs):
    for _ in range(24):
        n = 0
        for start, size, _name in d.fields:
            n |= rng.getrandbits(size) << start
        if d.sizes[0] != d.sizes[1]:
            n |= rng.getrandbits(1) << d.length_bit_pos
        n = (n & ~d.mask) | d.bits
        j, m = first_match(n)
        if m is not d:
            continue
        n &= (1 << (8 * d.decode_size(n))) - 1
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                text = str(d.disassemble(n, pc=0x100))
            text = re.sub(r"^(\S+)\s+", r"\1 ", text).strip()
        except Exception as e:  # applegpu.py's own assertions
            text = "!" + type(e).__name__
        print(f"{i}\t{n.to_bytes(d.decode_size(n), 'little').hex()}\t{text}")
