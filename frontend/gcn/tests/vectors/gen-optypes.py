#!/usr/bin/env python3
"""Regenerates tests/vectors/gfx{8,9}.optypes: LLVM 14's operand kind of every VALU source.

Run from the repository root: python3 frontend/gcn/tests/vectors/gen-optypes.py
Needs llvm-mc-14; the test (tests/isa_tables.rs) needs neither LLVM nor python.

Method. LLVM's disassembler prints an inline constant according to the LLVM operand type of
the slot it sits in, so an inline constant is a probe for that type:
  - code 248 (1/(2*pi)) prints `0x3118` in a 16-bit integer operand, `0.15915494` in a 16-bit
    float or any 32-bit operand, `0.15915494309189532` in a 64-bit operand;
  - a 32-bit literal 0x00003c00 in src0 of the 32-bit encoding prints `1.0` in a 16-bit float
    operand and `0x3c00` in any other (16-bit integer, 32-bit or 64-bit) operand.
For every VOP1/VOP2/VOPC/VOP3 row present in the generation, each source k is probed in the
VOP3 encoding (the other sources are v1, v2, v3; unused source fields stay 0, as LLVM requires) and, for VOP1/VOP2/VOPC rows with an `_e32`
form, src0 is probed again with the literal. The bytes are built here from the documented
VOP3 layout (CLRX doc/GcnInstrsVop3.md: opcode bits 25:16, SRC0/1/2 at 32/41/50), not by the
crate's encoder. One line per probe:
  hex bytes <TAB> llvm-mc text <TAB> source index <TAB> kind (i16 | f16 | 64 | 16or32 | not-f16)
`16or32` marks a 248 probe that cannot tell a 16-bit float from a 32-bit operand. Encodings
LLVM rejects are left out (listed on stderr).
"""
import pathlib, re, subprocess, sys

SRC = pathlib.Path('frontend/gcn/src/tables')
OUT = pathlib.Path('frontend/gcn/tests/vectors')
ROW = re.compile(r'row\(Family::(\w+), (\w+), \[([^\]]*)\], &\[(.*?)\], (\w+), \[(\w+), (\w+), (\w+)\], ([^,]+), ([^,]+), ([^,]+), ([^,]+), &\[(.*?)\]\),$')
GENS = {2: 'tonga', 3: 'gfx900'}
SRCS = ('Src0', 'Vsrc1', 'Src1', 'Src2')

rows = []
for f in sorted(SRC.glob('*.rs')):
    for line in f.read_text().splitlines():
        m = ROW.search(line.strip())
        if not m:
            continue
        fam, ident, ops, slots, _d, _s0, _s1, _s2, _fl, vop3, _sdwa, _dpp, ren = m.groups()
        if fam not in ('Vop1', 'Vop2', 'Vopc', 'Vop3'):
            continue
        ops = [None if o.strip() == 'NA' else int(o) for o in ops.split(',')]
        slots = [a for a, _ in re.findall(r'Slot\((\w+), (\d+)\)', slots)]
        nsrc = sum(1 for s in slots if s in SRCS)
        rename = dict((int(g[3:]) - 6, n) for g, n in re.findall(r'\((\w+), "(\w+)"\)', ren))
        rows.append(dict(fam=fam, name=ident.lower(), ops=ops, nsrc=nsrc, vop3=vop3, rename=rename))


def vop3_bytes(opc, srcs):
    d0 = (0x34 << 26) | (opc << 16)
    d1 = srcs[0] | (srcs[1] << 9) | (srcs[2] << 18)
    return d0.to_bytes(4, 'little') + d1.to_bytes(4, 'little')


def e32_bytes(fam, op, lit):
    if fam == 'Vop1':
        d0 = (0x3F << 25) | (op << 9) | 255
    elif fam == 'Vop2':
        d0 = (op << 25) | (1 << 9) | 255
    else:
        d0 = (0x3E << 25) | (op << 17) | (1 << 9) | 255
    return d0.to_bytes(4, 'little') + lit.to_bytes(4, 'little')


def disassemble(cpu, blobs):
    """Disassembles each blob separately (`s_movk_i32 s0, <index>` markers keep them apart)."""
    text = []
    for i, b in enumerate(blobs):
        marker = (0xB0000000 | i).to_bytes(4, 'little')
        text.append('[' + ','.join('0x%02x' % x for x in marker + b) + ']')
    out = subprocess.run(['llvm-mc-14', '-arch=amdgcn', '-mcpu=' + cpu, '--disassemble'],
                         input='\n'.join(text), capture_output=True, text=True).stdout
    res = [None] * len(blobs)
    cur = None
    for line in out.splitlines():
        line = line.strip()
        m = re.fullmatch(r's_movk_i32 s0, 0x([0-9a-f]+)', line)
        if m:
            cur = int(m.group(1), 16)
            continue
        if cur is not None and line and not line.startswith('.'):
            res[cur] = line
    return res


def operands(text):
    head = text.split(' ', 1)
    if len(head) < 2:
        return []
    return [o.strip() for o in head[1].split(',')]


for g, cpu in GENS.items():
    probes = []  # (bytes, src index, kind of probe, row)
    for r in rows:
        op = r['ops'][g]
        if op is None:
            continue
        gfx = 'G%d' % (g + 6)
        if r['fam'] == 'Vop3':
            opc = op
        elif gfx not in r['vop3']:
            continue
        else:
            opc = {'Vopc': 0, 'Vop2': 256, 'Vop1': 320}[r['fam']] + op
        for k in range(r['nsrc']):
            srcs = [257, 258, 259][:r['nsrc']] + [0] * (3 - r['nsrc'])
            srcs[k] = 248
            probes.append((vop3_bytes(opc, srcs), k, 'inline', r))
        if r['fam'] != 'Vop3' and r['nsrc'] >= 1:
            probes.append((e32_bytes(r['fam'], op, 0x3c00), 0, 'literal', r))
    texts = disassemble(cpu, [p[0] for p in probes])
    lines = []
    for (b, k, how, r), t in zip(probes, texts):
        if t is None or 'invalid' in t:
            print('%s: no disassembly for %s src%d (%s)' % (cpu, r['name'], k, how), file=sys.stderr)
            continue
        ops = operands(t)
        name = r['rename'].get(g, r['name'])
        # Locate the probed source: the operand that is not a register.
        cand = [o for o in ops if not re.match(r'^(v|s|vcc|exec|ttmp)', o.lstrip('-|'))]
        if len(cand) != 1:
            print('%s: cannot locate src%d in `%s`' % (cpu, k, t), file=sys.stderr)
            continue
        v = cand[0]
        if how == 'inline':
            kind = {'0x3118': 'i16', '0.15915494': '16or32', '0.15915494309189532': '64'}.get(v)
        else:
            kind = {'1.0': 'f16', '0x3c00': 'not-f16'}.get(v)
        if kind is None:
            print('%s: unexpected `%s` for %s src%d' % (cpu, v, name, k), file=sys.stderr)
            continue
        lines.append('%s\t%s\t%d\t%s' % (b.hex(), t, k, kind))
    (OUT / ('gfx%d.optypes' % (g + 6))).write_text('\n'.join(lines) + '\n')
    print('gfx%d: %d probes, %d kept' % (g + 6, len(probes), len(lines)), file=sys.stderr)
