#!/usr/bin/env bash
# Regenerates frontend/gcn/tests/vectors/ from LLVM 14 (the oracle). Needs llvm-mc-14 and
# python3; the tests themselves need neither.
#
# For every table row and every generation that has it, candidate instructions are written from
# the row's mnemonic and operand slots (several variants: modifiers, inline constants, literals,
# 64-bit operands, memory offsets/flags). `llvm-mc -show-encoding` keeps the accepted ones and
# gives canonical text and bytes; for gfx8/gfx9 the bytes are disassembled again with
# `llvm-mc --disassemble` and that text is stored. Output per generation:
#   gfxN.txt       hex bytes <TAB> text: llvm-mc's canonical text (the decoder+printer must print
#                  it; the assembler must turn it back into the bytes)
#   gfxN.asm-vs-disasm  (gfx8/9) bytes whose --disassemble text differs from the canonical text
#                  (LLVM 14 prints negative branch displacements unsigned when disassembling)
#   gfxN.rejected  candidates llvm-mc rejected (visible, not silently dropped)
#   gfxN.uncovered rows of that generation for which llvm-mc accepted no candidate
set -euo pipefail
cd "$(dirname "$0")/.."
command -v llvm-mc-14 >/dev/null || { echo "llvm-mc-14 not found" >&2; exit 1; }
exec python3 - "$@" <<'PY'
import re, subprocess, struct, sys, collections, pathlib
SRC = pathlib.Path('frontend/gcn/src/tables')
OUT = pathlib.Path('frontend/gcn/tests/vectors')
CPU = {0: 'tahiti', 1: 'bonaire', 2: 'tonga', 3: 'gfx900'}
GN = ['Gfx6', 'Gfx7', 'Gfx8', 'Gfx9']
ROW = re.compile(r'row\(Family::(\w+), (\w+), \[([^\]]*)\], &\[(.*?)\], (\w+), \[(\w+), (\w+), (\w+)\], ([^,]+), ([^,]+), ([^,]+), ([^,]+), &\[(.*?)\]\),$')
rows = []
for f in sorted(SRC.glob('*.rs')):
    for line in f.read_text().splitlines():
        m = ROW.search(line.strip())
        if not m:
            continue
        fam, ident, ops, slots, dty, s0, s1, s2, flags, vop3, sdwa, dpp, ren = m.groups()
        ops = [None if o.strip() == 'NA' else int(o) for o in ops.split(',')]
        slots = [(a, int(b)) for a, b in re.findall(r'Slot\((\w+), (\d+)\)', slots)]
        mask = lambda s: {GN.index('Gfx' + g) for g in re.findall(r'G(\d)', s)} if s != '0' else set()
        rename = dict((GN.index(g), n) for g, n in re.findall(r'\((\w+), "(\w+)"\)', ren))
        rows.append(dict(fam=fam, ident=ident.lower(), ops=ops, slots=slots, types=[s0, s1, s2], dty=dty,
                         flags=flags, vop3=mask(vop3), sdwa=mask(sdwa), dpp=mask(dpp), rename=rename))
def R(p, n, w):
    return '%s%d' % (p, n) if w <= 1 else '%s[%d:%d]' % (p, n, n + w - 1)
def vop_src(kind, w, ty):
    return {'v': R('v', 4, w), 's': R('s', 8, w), 'i': '-3', 'f': '1.0', 'l': '0x1234'}[kind]
def cands(r, g):
    n = r['rename'].get(g, r['ident']); fam = r['fam']; S = r['slots']; out = []
    fl = r['types'][0] in ('F16', 'F32', 'F64')
    def ops(sub):
        return ', '.join(x for x in (sub(f, w) for f, w in S) if x is not None)
    if fam in ('Sop2', 'Sop1', 'Sopc', 'Sopk', 'Sopp'):
        for v in ('r', 'lit', 'inl', 'spec'):
            def sub(f, w):
                if f == 'Sdst': return R('s', 4, w) if v != 'spec' else ('vcc' if w == 2 else 'm0' if w == 1 else R('s', 4, w))
                if f == 'Ssrc0': return {'r': R('s', 8, w), 'lit': '0x12345678', 'inl': '-5', 'spec': 'exec' if w == 2 else 'vcc_lo' if w == 1 else R('s', 8, w)}[v]
                if f == 'Ssrc1': return {'r': R('s', 12, w), 'lit': R('s', 12, w), 'inl': '64', 'spec': R('ttmp', 4, w)}[v]
                if f == 'Simm16': return {'r': '0x10', 'lit': '0xfff0', 'inl': '0', 'spec': '0x7fff'}[v] if fam == 'Sopk' else {'r': '1', 'lit': '3', 'inl': '0', 'spec': '2'}[v]
                if f == 'Branch': return {'r': '5', 'lit': '-3', 'inl': '0', 'spec': '32767'}[v]
                if f == 'Waitcnt': return {'r': 'vmcnt(1) lgkmcnt(2)', 'lit': 'expcnt(3)', 'inl': 'vmcnt(0) expcnt(0) lgkmcnt(0)', 'spec': 'lgkmcnt(7)'}[v]
                if f == 'Sendmsg': return {'r': 'sendmsg(MSG_INTERRUPT)', 'lit': 'sendmsg(MSG_GS, GS_OP_EMIT, 1)', 'inl': 'sendmsg(MSG_GS_DONE, GS_OP_NOP)', 'spec': 'sendmsg(MSG_SYSMSG, SYSMSG_OP_REG_RD)'}[v]
                if f == 'GprIdx': return {'r': 'gpr_idx(SRC0,DST)', 'lit': 'gpr_idx()', 'inl': 'gpr_idx(SRC1,SRC2)', 'spec': 'gpr_idx(SRC0,SRC1,SRC2,DST)'}[v]
                if f == 'Hwreg': return {'r': 'hwreg(HW_REG_MODE)', 'lit': 'hwreg(HW_REG_TRAPSTS, 2, 3)', 'inl': 'hwreg(HW_REG_HW_ID, 0, 8)', 'spec': 'hwreg(HW_REG_GPR_ALLOC)'}[v]
                if f == 'Literal': return '0x1234'
            out.append(n + (' ' + ops(sub) if S else ''))
    elif fam in ('Smrd', 'Smem'):
        for v in ('imm', 'sgpr', 'glc', 'big'):
            def sub(f, w):
                if f == 'Sdata': return R('s', 20, w)
                if f == 'SdataImm': return '7'
                if f == 'Sbase': return R('s', 4, w) if v != 'big' else R('s', 8, w)
                if f == 'Soff': return {'imm': '0x10', 'sgpr': 's30', 'glc': '0x4', 'big': '0xff' if fam == 'Smrd' else '0xfffff'}[v]
            t = n + (' ' + ops(sub) if S else '')
            if v == 'glc' and fam == 'Smem' and S: t += ' glc'
            out.append(t)
    elif fam in ('Vop1', 'Vop2', 'Vopc'):
        scal_dst = r['ident'] in ('v_readfirstlane_b32', 'v_readlane_b32')
        lane = r['ident'] in ('v_readlane_b32', 'v_writelane_b32')
        has_lit = any(f == 'Literal' for f, _ in S)
        for v in ('v', 's', 'i', 'f', 'l'):
            def sub(f, w):
                if f == 'Vdst': return R('s', 12, w) if scal_dst else R('v', 12, w)
                if f == 'Src0': return R('s', 2, w) if lane and v == 'v' else vop_src(v, w, r['types'][0])
                if f == 'Vsrc1': return ('s3' if v != 'i' else '5') if lane else R('v', 8, w)
                if f in ('VccOut', 'VccIn'): return 'vcc'
                if f == 'Literal': return '0x41200000'
            out.append(n + ('' if has_lit or lane else '_e32') + (' ' + ops(sub) if S else ''))
        if g in r['vop3']:
            for v in ('v', 'mods', 'inl'):
                def sub3(f, w):
                    if f == 'Vdst': return R('s', 12, w) if scal_dst else R('v', 12, w)
                    if f == 'VccOut': return R('s', 20, 2)
                    if f == 'VccIn': return R('s', 22, 2)
                    if f == 'Src0': return ('-|%s|' % R('v', 4, w) if fl else R('v', 4, w)) if v == 'mods' else ('0.5' if fl else '7') if v == 'inl' else R('v', 4, w)
                    if f == 'Vsrc1': return ('|%s|' % R('s', 8, w) if fl else R('s', 8, w)) if v == 'mods' else R('v', 8, w)
                    if f == 'Literal': return None
                t = n + '_e64' + (' ' + ops(sub3) if S else '')
                if v == 'mods' and fl and fam != 'Vopc': t += ' clamp mul:2' if r['dty'] != 'F16' or g < 3 else ' clamp'
                out.append(t)
        if g in r['sdwa'] and S:
            def subs(f, w):
                if f == 'Vdst': return R('v', 12, w)
                if f == 'Src0': return ('-|v4|' if fl else 'sext(v4)') if fam != 'Vop1' or fl else 'v4'
                if f == 'Vsrc1': return 'v8'
                if f in ('VccOut', 'VccIn'): return 'vcc'
            t = n + '_sdwa ' + ops(subs)
            if fam != 'Vopc': t += ' dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE'
            t += ' src0_sel:BYTE_1'
            if fam != 'Vop1': t += ' src1_sel:WORD_0'
            out.append(t)
        if g in r['dpp'] and S:
            def subd(f, w):
                if f == 'Vdst': return R('v', 12, w)
                if f == 'Src0': return '-v4' if fl else 'v4'
                if f == 'Vsrc1': return '|v8|' if fl else 'v8'
                if f in ('VccOut', 'VccIn'): return 'vcc'
            out.append(n + '_dpp ' + ops(subd) + ' quad_perm:[1,0,3,2] row_mask:0xa bank_mask:0x5')
            out.append(n + '_dpp ' + ops(subd) + ' row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:0')
    elif fam in ('Vop3', 'Vop3p'):
        scal_dst = r['ident'] == 'v_readlane_b32'
        for v in ('v', 'mods', 'inl', 's'):
            def sub(f, w):
                if f == 'Vdst': return R('s', 12, w) if scal_dst else R('v', 12, w)
                if f == 'Sdst3b': return 'vcc' if v == 'v' else R('s', 20, 2)
                k = {'Src0': 0, 'Src1': 1, 'Src2': 2}[f]
                base = R('v', [4, 8, 16][k], w)
                if r['ident'] == 'v_writelane_b32' and k == 0: base = 's2'
                if r['ident'] in ('v_readlane_b32', 'v_writelane_b32') and k == 1: base = 's3'
                if v == 'mods' and fl and fam == 'Vop3': return ['-' + base, '|' + base + '|', '-|' + base + '|'][k]
                if v == 'inl' and k == 0: return '0.5' if fl else '-4'
                if v == 's' and k == 1: return R('s', 10, w)
                return base
            t = n + ' ' + ops(sub)
            if v == 'mods' and fam == 'Vop3' and fl: t += ' clamp div:2' if not (r['dty'] == 'F16' and g == 3) else ' clamp'
            if v == 'mods' and fam == 'Vop3p': t += ' op_sel:[1,0%s] op_sel_hi:[0,1%s]' % ((',1', ',0') if len(S) == 4 else ('', ''))
            out.append(t)
    elif fam == 'Ds':
        two = 'DS_2ADDR' in r['flags']
        for v in ('a', 'b', 'c'):
            def sub(f, w):
                return {'Vdata': R('v', 16, w), 'Addr': R('v', 4, w), 'Data0': R('v', 8, w), 'Data1': R('v', 12, w)}[f]
            t = n + (' ' + ops(sub) if S else '')
            if v == 'a': t += ' offset0:4 offset1:8' if two else ' offset:16'
            if v == 'b': t += ' offset1:255' if two else ' offset:65535'
            if v == 'c': t += ' gds'
            out.append(t)
    elif fam in ('Mubuf', 'Mtbuf'):
        if not S:
            out.append(n)
        else:
            # gfx8 keeps d16 format components unpacked, one per VGPR (OpInfo::vdata_regs).
            m16 = re.search(r'format_d16_(x[yzw]*)$', n)
            vd = R('v', 8, len(m16.group(1)) if m16 and g == 2 else dict(S)['Vdata'])
            fmt = ' format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]' if fam == 'Mtbuf' else ''
            out.append('%s %s, off, s[8:11], s3%s offset:16' % (n, vd, fmt))
            out.append('%s %s, v4, s[8:11], s3%s offen offset:4095 glc' % (n, vd, fmt))
            out.append('%s %s, v[4:5], s[8:11], 0%s idxen offen slc' % (n, vd, fmt))
            out.append('%s %s, v4, s[12:15], -1 idxen offset:7 glc slc' % (n, vd))
            if g < 2: out.append('%s %s, v[4:5], s[8:11], s3%s addr64 offset:4' % (n, vd, fmt))
    elif fam in ('Flat', 'Global', 'Scratch'):
        for v in ('a', 'b', 'c'):
            def sub(f, w):
                if f == 'Saddr': return 'off' if v != 'c' else ('s[20:21]' if fam == 'Global' else 's20')
                if f == 'Addr' and v == 'c' and fam == 'Global': return 'v4'
                return {'Vdata': R('v', 12, w), 'Addr': R('v', 4, w), 'Data0': R('v', 8, w)}[f]
            t = n + ' ' + ops(sub)
            if v == 'a': t += ' glc slc' if fam == 'Flat' else ' offset:-16' if g == 3 else ''
            if v == 'b': t += ' offset:4095' if g == 3 else ' glc'
            if v == 'c' and g == 3: t += ' offset:8'
            out.append(t)
            if 'ATOMIC' in r['flags'] and v != 'b' and 'Data0' in dict(S):
                w = dict(S)['Data0'] // (2 if 'cmpswap' in n else 1)
                out.append(n + ' ' + R('v', 12, w) + ', ' + ops(sub) + ' glc')
    elif fam == 'Mimg':
        # VDATA as LLVM 14 sizes it (tables/mimg.rs vdata_regs, written again here: the gfx8/9
        # disassembly below checks it); VADDR as the row's slot (what the disassembler prints).
        sl = dict(S); base = sl['Vdata']; name = r['ident']
        gather = name.startswith('image_gather4'); atomic = 'ATOMIC' in r['flags']
        d16ok = g >= 2 and (name in ('image_load', 'image_load_mip', 'image_store', 'image_store_mip')
                            or name.startswith('image_sample') or gather)
        def vd(dmask, tfe=False, d16=False):
            n = 4 if gather else max(bin(dmask).count('1'), 1)
            if d16 and g == 3: n = (n + 1) // 2
            n += tfe
            ok = n in (base, 2 * base) if atomic else n in (2, 4, 5) if gather else 1 <= n <= 5
            return n if ok else base
        samp = ', s[16:19]' if 'Ssamp' in sl else ''
        a128 = 'a16' if g == 3 else 'r128'
        if atomic:
            one = 3 if base == 2 else 1
            vs = [(one, ' unorm glc'), (3 if base == 1 else 0xf, ' slc da'), (1, ' glc tfe'), (one, ' ' + a128 + ' lwe')]
        elif gather:
            vs = [(1, ''), (8, ' unorm glc tfe'), (2, ' slc ' + a128 + ' lwe da')]
            if d16ok: vs += [(4, ' d16'), (1, ' tfe d16')]
        else:
            vs = [(0, ''), (0xf, ' unorm glc'), (1, ' slc tfe'), (7, ' %s lwe da' % a128), (0xf, ' tfe'), (0xa, ' glc slc')]
            if d16ok: vs += [(0xf, ' d16'), (3, ' tfe d16'), (7, ' d16')]
        for dm, mods in vs:
            t = ' '.join(mods.split())
            w = vd(dm, 'tfe' in t, 'd16' in t)
            dms = ' dmask:0x%x' % dm if dm else ''
            out.append('%s %s, %s, s[8:15]%s%s%s' % (n, R('v', 1, w), R('v', 20, sl['Addr']), samp, dms, mods))
        out.append('%s %s, %s, s[12:19]%s dmask:0x1' % (n, R('v', 250 if not gather else 248, vd(1)), R('v', 255 - sl['Addr'] + 1, sl['Addr']), ', s[96:99]' if samp else ''))
    return list(dict.fromkeys(out))
def asm(cpu, lines):
    p = subprocess.run(['llvm-mc-14', '-triple=amdgcn-amd-amdhsa', '-mcpu=' + cpu, '-show-encoding'],
                       input='\n'.join(lines) + '\n', capture_output=True, text=True)
    bad = {int(m.group(1)) for m in re.finditer(r'<stdin>:(\d+):\d+: error', p.stderr)}
    outs = iter([l.strip() for l in p.stdout.splitlines() if 'encoding:' in l])
    res = []
    for i in range(len(lines)):
        if i + 1 in bad:
            res.append(None)
            continue
        t, e = next(outs).split('; encoding:')
        bs = [int(x, 16) for x in e.strip().strip('[]').split(',')]
        res.append((t.strip(), bs))
    return res
def disasm(cpu, blobs):
    lines = []
    for b in blobs:
        lines.append(','.join('0x%02x' % x for x in b))
        lines.append('0x06,0x00,0x80,0xbf')  # s_nop 6: separator, never a candidate
    p = subprocess.run(['llvm-mc-14', '-triple=amdgcn-amd-amdhsa', '-mcpu=' + cpu, '--disassemble'],
                       input='\n'.join(lines) + '\n', capture_output=True, text=True)
    bad = {int(m.group(1)) for m in re.finditer(r'<stdin>:(\d+):\d+: warning', p.stderr)}
    out = [l.strip() for l in p.stdout.splitlines() if l.strip() and not l.strip().startswith('.')]
    res, cur = [], []
    for l in out:
        if l == 's_nop 6':
            res.append(cur); cur = []
        else:
            cur.append(l)
    return [None if (2 * i + 1) in bad or len(r) != 1 else r[0] for i, r in enumerate(res)]
OUT.mkdir(parents=True, exist_ok=True)
for g, cpu in CPU.items():
    lines, owner = [], []
    for r in rows:
        if r['ops'][g] is None:
            continue
        for c in cands(r, g):
            lines.append(c); owner.append(r)
    res = asm(cpu, lines)
    vec, rej, covered, mism = [], [], set(), []
    good = [(l, o, x) for l, o, x in zip(lines, owner, res) if x]
    dis = disasm(cpu, [x[1] for _, _, x in good]) if g >= 2 else [None] * len(good)
    for (l, o, (text, bs)), d in zip(good, dis):
        if g >= 2:
            if d is None:
                rej.append('%s\t# llvm-mc cannot disassemble its own encoding' % l); continue
            if d != text: mism.append('%s\t%s\t%s' % (bytes(bs).hex(), text, d))
        vec.append('%s\t%s' % (bytes(bs).hex(), text))
        covered.add((o['fam'], o['ident']))
    rej += [l for l, x in zip(lines, res) if x is None]
    unc = sorted({'%s %s' % (r['fam'], r['ident']) for r in rows if r['ops'][g] is not None and (r['fam'], r['ident']) not in covered})
    name = 'gfx%d' % (g + 6)
    (OUT / (name + '.txt')).write_text('\n'.join(dict.fromkeys(vec)) + '\n')
    (OUT / (name + '.rejected')).write_text('\n'.join(rej) + '\n')
    (OUT / (name + '.uncovered')).write_text('\n'.join(unc) + '\n')
    if mism: (OUT / (name + '.asm-vs-disasm')).write_text('\n'.join(mism) + '\n')
    print(name, 'vectors', len(vec), 'rejected', len(rej), 'uncovered rows', len(unc), 'asm/disasm text differs', len(mism), file=sys.stderr)
PY
