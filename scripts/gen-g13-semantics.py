#!/usr/bin/env python3
"""Writes frontend/g13/tests/data/semantics-vectors.tsv: random instances of every instruction
form applegpu.py (dougallj/applegpu) executes, each with the registers it reads before and
the registers it writes after one step of applegpu's own emulator.

Usage: scripts/gen-g13-semantics.py APPLEGPU_DIR [COMMIT] > frontend/g13/tests/data/semantics-vectors.tsv

APPLEGPU_DIR holds applegpu.py and fma.py. Only results are taken from applegpu.py: the
script builds its `CoreState` (128 registers, uniforms u0-u255), runs a descriptor's `exec`
on one instruction and records what changed; no code of applegpu is copied.

For each form (a descriptor with an `exec` or `exec_thread` of its own, except memory and
`wait`), COUNT instances (MORE of the adds, which alone take 64-bit pairs and `.sx`; FEW of
`fcmp_ballot`, whose compare applegpu leaves a stub) are drawn with a seeded generator:
random bits in every field of the descriptor and its length bit (so sources and
destinations are halves, words, pairs, uniforms or immediates, with hints, `.sx`, `.abs`,
`.neg`, `.sat`, shifts and masks as the fields fall), cut to the length the length bit
gives. `get_sr` takes SR 80, the one special
register applegpu executes. A word another descriptor matches first, a word applegpu's
decoder or emulator rejects is skipped: undefined operand types (also where applegpu would
not evaluate the operand), integer condition 3, float conditions 4 and ltn/gtn (which
applegpu does not model), registers past r127.

Register cells (32 bits, both halves) get their initial values the first time the
instruction touches them, lane by lane, biased to edge cases: f32 zeros, infinities, NaNs
with payloads, denormals, the smallest normal, 1.0 and its neighbours, values whose sums,
products and double roundings tie; pairs of f16 halves with the same kinds; integers 0, 1,
INT_MIN/MAX, all ones, 16-bit edges and small shift amounts and lane numbers; random bits.
r0l, the exec-stack counter, is a small count. The exec mask is one of a few masks, all
lanes active half the time.

Each line (after the `#` header) is

    ID <tab> BYTES <tab> EXEC <tab> INIT <tab> FINAL

ID `name#k` (the k-th instance of that name), BYTES the instruction in hex, EXEC the exec
mask before (hex, bit i = lane i), INIT the cells the instruction touched with their values
before, FINAL the cells it wrote with their values after and, for the exec-stack forms,
`exec=` the exec mask after. A cell is `rN=` 32 lane values (lane 0 first) or `uN=` one
value, in hex, separated by commas; in FINAL a lane that kept its value is `.`; `rN=*v` is
v (or `.`) in every lane. Every lane holds a thread.
"""
import contextlib
import io
import random
import struct
import subprocess
import sys

root = sys.argv[1]
sys.path.insert(0, root)
import applegpu  # noqa: E402

COUNT = 32
# applegpu's fcmp_ballot compares nothing (its compare is a stub that holds in every lane):
# a few instances show it, the rest of the budget goes to forms it models.
FEW = {"fcmp_ballot": 4}
# The adds read and write 64-bit pairs and sign-extend: twice the instances.
MORE = {"iadd": 64, "imadd": 64}
LANES = applegpu.SIMD_WIDTH


def head_commit(path):
    try:
        return subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


F32_EDGES = [
    0x00000000, 0x80000000, 0x7f800000, 0xff800000,  # zeros, infinities
    0x7fc00000, 0x7fc00001, 0xffc12345, 0x7f800001, 0xff800fff, 0x7fbfffff,  # NaNs
    0x00000001, 0x807fffff, 0x00400000, 0x80000003,  # denormals
    0x00800000, 0x80800000, 0x00800001, 0x00ffffff,  # smallest normals
    f32(1.0), f32(-1.0), 0x3f800001, 0x3f7fffff, f32(2.0), f32(0.5), f32(1.5), f32(-0.5),
    0x7f7fffff, 0xff7fffff,  # largest finite
    f32(2.0**-24), f32(2.0**-25), f32(3 * 2.0**-26), f32(2.0**-23),  # ties near 1.0
    0x3f801000, f32(2.0**-30), 0x3f802000, 0x3f801001,  # double rounding to f16
    f32(65504.0), f32(65520.0), f32(65519.0), f32(2.0**-14), f32(2.0**-15), f32(2.0**-25),
    0x1f800000, 0x20000000, 0x20000001, 0x1fffffff, 0x1f7fffff, 0x3f000001,  # tiny products
    f32(3.0), f32(-7.25), f32(0.1), f32(1e10), f32(-1e-10),
]
F16_EDGES = [
    0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7e01, 0xfd55, 0x7c01,
    0x0001, 0x03ff, 0x8200, 0x0400, 0x8400, 0x0401,
    0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x4000, 0x3800, 0x3e00, 0x7bff, 0xfbff,
    0x1000, 0x0c00, 0x1400, 0x1001, 0x3555, 0x4900, 0x5bff,
]
INT_EDGES = [
    0, 1, 2, 3, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x80000001,
    0x7fff, 0x8000, 0xffff, 0x10000, 0xffff0000, 0x80008000, 0x7fff7fff, 0x0001ffff,
    31, 32, 33, 63, 64, 65, 95, 127, 128, 0xff, 0x100, 0x55555555, 0xaaaaaaaa,
]
INT16_EDGES = [0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 0x7f, 0x80, 0xff, 0x7fff, 0x8000,
               0xfffe, 0xffff, 0x1f, 0x20]
EXEC_MASKS = [0xffffffff] * 4 + [0x5a5a5aa5, 0x0000ffff, 0xfffe7ffe, 0x80000001]
R0L_VALUES = [0, 0, 0, 1, 1, 2, 3, 4, 5, 0xfffe, 0xffff]


def rand_f32(rng):
    exp = rng.choice([rng.randrange(0, 12), rng.randrange(100, 150), rng.randrange(240, 256)])
    return rng.getrandbits(1) << 31 | exp << 23 | rng.getrandbits(23)


def rand_f16(rng):
    return rng.getrandbits(1) << 15 | rng.randrange(0, 32) << 10 | rng.getrandbits(10)


def half16(rng, kind):
    if kind == "int":
        return rng.choice(INT16_EDGES) if rng.random() < 0.7 else rng.getrandbits(16)
    return rng.choice(F16_EDGES) if rng.random() < 0.6 else rand_f16(rng)


def draw_word(rng, kind):
    """One lane's 32-bit cell, biased to the edges of `kind` (f32, f16 or int)."""
    weights = {
        "f32": [("f32", 5), ("f32r", 2), ("halves", 2), ("int", 1), ("bits", 1)],
        "f16": [("halves", 7), ("f32", 2), ("int", 1), ("bits", 1)],
        "int": [("int", 5), ("ihalves", 3), ("f32", 1), ("bits", 2)],
    }[kind]
    pick = rng.choices([w[0] for w in weights], [w[1] for w in weights])[0]
    if pick == "f32":
        return rng.choice(F32_EDGES)
    if pick == "f32r":
        return rand_f32(rng)
    if pick == "halves":
        return half16(rng, "f16") | half16(rng, "f16") << 16
    if pick == "ihalves":
        return half16(rng, "int") | half16(rng, "int") << 16
    if pick == "int":
        return rng.choice(INT_EDGES)
    return rng.getrandbits(32)


class Lanes:
    """A register's 16-bit values by thread, telling the tracker of every access."""

    def __init__(self, tracker, regid):
        self.tracker = tracker
        self.regid = regid

    def __getitem__(self, thread):
        return self.tracker.read(self.regid)[thread]

    def __setitem__(self, thread, value):
        self.tracker.write(self.regid)[thread] = value


class Registers:
    """The general registers, drawn on first touch."""

    def __init__(self, rng, kind, exec_stack):
        self.rng, self.kind, self.exec_stack = rng, kind, exec_stack
        self.halves = {}
        self.initial = {}
        self.written = set()

    def cell(self, regid):
        if not 0 <= regid < 256:
            raise IndexError(regid)
        n = regid >> 1
        if n not in self.initial:
            words = [draw_word(self.rng, self.kind) for _ in range(LANES)]
            if n == 0 and self.exec_stack:
                words = [(w & 0xffff0000) | self.rng.choice(R0L_VALUES) for w in words]
            self.initial[n] = words
            self.halves[2 * n] = [w & 0xffff for w in words]
            self.halves[2 * n + 1] = [w >> 16 for w in words]
        return n

    def read(self, regid):
        self.cell(regid)
        return self.halves[regid]

    def write(self, regid):
        self.written.add(self.cell(regid))
        return self.halves[regid]

    def __getitem__(self, regid):
        return Lanes(self, regid)

    def final(self, n):
        return [self.halves[2 * n][t] | self.halves[2 * n + 1][t] << 16 for t in range(LANES)]


class UniformHalves:
    """The uniform registers' halves, drawn on first read."""

    def __init__(self, rng, kind):
        self.rng, self.kind = rng, kind
        self.initial = {}

    def __getitem__(self, regid):
        if not 0 <= regid < 512:
            raise IndexError(regid)
        n = regid >> 1
        if n not in self.initial:
            self.initial[n] = draw_word(self.rng, self.kind)
        return (self.initial[n] >> (16 * (regid & 1))) & 0xffff


# name -> (value kind, fields forced to a value)
FORMS = {
    "mov_imm": ("int", {}),
    "get_sr": ("int", {"SR": 80}),
    "iadd": ("int", {}),
    "imadd": ("int", {}),
    "bfi": ("int", {}),
    "bfeil": ("int", {}),
    "extr": ("int", {}),
    "shlhi": ("int", {}),
    "shrhi": ("int", {}),
    "asr": ("int", {}),
    "asrh": ("int", {}),
    "bitop": ("int", {}),
    "bitrev": ("int", {}),
    "popcount": ("int", {}),
    "ffs": ("int", {}),
    "fmadd32": ("f32", {}),
    "fmadd16": ("f16", {}),
    "fadd32": ("f32", {}),
    "fadd16": ("f16", {}),
    "fmul32": ("f32", {}),
    "fmul16": ("f16", {}),
    "pop_exec": ("int", {}),
    "if_icmp": ("int", {}),
    "if_fcmp": ("f32", {}),
    "while_icmp": ("int", {}),
    "while_fcmp": ("f32", {}),
    "else_icmp": ("int", {}),
    "else_fcmp": ("f32", {}),
    "icmpsel": ("int", {}),
    "fcmpsel": ("f32", {}),
    "icmp_ballot": ("int", {}),
    "fcmp_ballot": ("f32", {}),
    "simd_shuffle": ("int", {}),
    "simd_shuffle_down": ("int", {}),
    "simd_shuffle_up": ("int", {}),
    "simd_shuffle_rotate_up": ("int", {}),
    "simd_shuffle_xor": ("int", {}),
}
EXEC_STACK = {"pop_exec", "if_icmp", "if_fcmp", "while_icmp", "while_fcmp", "else_icmp",
              "else_fcmp"}


def cells_text(cells, before=None):
    """Cells as text; a lane of a cell in `before` that kept its value there is `.`."""
    out = []
    for name, vals in cells:
        if isinstance(vals, int):
            out.append(f"{name}={vals:x}")
            continue
        old = (before or {}).get(name)
        lanes = ["." if old and old[t] == v else f"{v:x}" for t, v in enumerate(vals)]
        if all(x == lanes[0] for x in lanes):
            out.append(f"{name}=*{lanes[0]}")
        else:
            out.append(f"{name}=" + ",".join(lanes))
    return " ".join(out)


def random_word(rng, d, forced):
    n = 0
    for start, size, _name in d.fields:
        n |= rng.getrandbits(size) << start
    if d.sizes[0] != d.sizes[1]:
        n |= rng.getrandbits(1) << d.length_bit_pos
    n = (n & ~d.mask) | d.bits
    if forced:
        long_bit = n & (1 << d.length_bit_pos) if d.sizes[0] != d.sizes[1] else 0
        n = d.patch_fields(n, forced) | long_bit
    return n & ((1 << (8 * d.decode_size(n))) - 1)


def defined(d, n):
    """Whether every operand of `n` has a defined encoding. applegpu evaluates some operands
    only when needed (the compare of an exec-stack instruction whose counter skips it, the
    select operand not chosen), so an undefined one can go unnoticed when it runs."""
    fields = dict(d.decode_fields(n))
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            operands = d.decode_operands(n)
    except (AssertionError, AttributeError):
        return False
    if any(o is None for o in operands):
        return False
    if "cc" in fields and "cc" in d.operands:
        cond = d.operands["cc"]
        if isinstance(cond, applegpu.IConditionDesc) and fields["cc"] & 3 == 3:
            return False
        if isinstance(cond, applegpu.FConditionDesc) and fields["cc"] in (3, 4, 7):
            return False
    return True


def run(d, n, kind, rng):
    """applegpu's step of instruction `n` from a fresh drawn state: (exec before, cells read
    or written with their values before, cells written with their values after, exec after),
    or None when applegpu rejects the instruction."""
    regs = Registers(rng, kind, d.name in EXEC_STACK)
    uniforms = applegpu.Uniforms()
    uniforms.reg16s = UniformHalves(rng, kind)
    cs = applegpu.CoreState(num_registers=128, uniforms=uniforms)
    cs.reg16s = regs
    exec_before = rng.choice(EXEC_MASKS)
    cs.exec = [bool(exec_before >> t & 1) for t in range(LANES)]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            d.exec(n, cs)
    except (AssertionError, NotImplementedError, IndexError, AttributeError, TypeError):
        return None
    exec_after = sum(1 << t for t in range(LANES) if cs.exec[t])
    init = [(f"r{c}", regs.initial[c]) for c in sorted(regs.initial)]
    init += [(f"u{c}", uniforms.reg16s.initial[c]) for c in sorted(uniforms.reg16s.initial)]
    final = [(f"r{c}", regs.final(c)) for c in sorted(regs.written)]
    if d.name in EXEC_STACK:
        final.append(("exec", exec_after))
    return exec_before, init, final


def main():
    commit = sys.argv[2] if len(sys.argv) > 2 else head_commit(root)
    descs = applegpu.instruction_descriptors
    rng = random.Random(1313)

    def first_match(n):
        return next((d for d in descs if d.matches(n)), None)

    print(f"# applegpu.py commit {commit}; scripts/gen-g13-semantics.py; "
          "ID, BYTES, EXEC, INIT, FINAL")
    print("# results of applegpu.py's own emulator (CoreState, exec); see the script's doc")
    seen = {}
    for d in descs:
        if d.name not in FORMS:
            continue
        kind, forced = FORMS[d.name]
        made = 0
        tries = 0
        count = FEW.get(d.name, MORE.get(d.name, COUNT))
        while made < count and tries < count * 50:
            tries += 1
            n = random_word(rng, d, forced)
            if first_match(n) is not d:
                continue
            if not defined(d, n):
                continue
            got = run(d, n, kind, rng)
            if got is None:
                continue
            exec_before, init, final = got
            k = seen.get(d.name, 0)
            seen[d.name] = k + 1
            made += 1
            size = d.decode_size(n)
            print(f"{d.name}#{k}\t{n.to_bytes(size, 'little').hex()}\t{exec_before:x}\t"
                  f"{cells_text(init)}\t{cells_text(final, dict(init))}")


main()
