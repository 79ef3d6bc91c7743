#!/usr/bin/env python3
"""Writes frontend/g13/tests/data/agx2-forms.tsv: the encoding facts of every instruction of
Mesa's AGX2.xml (src/asahi/isa/AGX2.xml, the Apple G13 ISA description of Mesa's asahi
driver), for tests/agx2_table.rs to compare with the table generated from applegpu.py.

Usage: scripts/gen-g13-agx2.py AGX2_XML COMMIT > frontend/g13/tests/data/agx2-forms.tsv

COMMIT names the bminor/mesa-mesa commit the file was read from (it goes in the header).
Only facts are written, one line per instruction (a group's members each get a line):

    NAME <tab> DISPLAY <tab> ALIAS <tab> LENGTH <tab> LBIT <tab> MASK <tab> BITS <tab> FIELDS

NAME the instruction's name, DISPLAY the mnemonic Mesa prints, ALIAS 1 for an alias
encoding (a special case of another instruction), LENGTH the length in bytes (`short/long`
for two lengths), LBIT the length bit (`-` for one length), MASK and BITS (hex) the bits
the instruction fixes (`exact` and `zero` elements, a group's per-member values filled in)
and their values, FIELDS its operands and modifiers as `role(kind)=positions` separated by
`; `, positions ascending ranges `a:b` or single bits, lowest value bits first. Positions
AGX2.xml writes from the end of the instruction (negative) are resolved against the long
length.
"""
import sys
import xml.etree.ElementTree as ET

path, commit = sys.argv[1], sys.argv[2]
root = ET.parse(path).getroot()

# Named shorthands (<dest1/>, <saturate/>, <membase/>, ...) and the default length bit.
defines = {}
default_lbit = None
for d in root.findall("define"):
    for role in ("dest", "src", "modifier"):
        if role in d.attrib:
            name = d.attrib[role]
            if role == "modifier" and name == "length":
                default_lbit = int(d.attrib["bit"])
            else:
                defines[name] = (role, d.attrib.get("kind", name), d.attrib["bit"])


def positions(spec, long_bits):
    """The bit positions of a spec like `7:14 -4:-3 8`, in value order."""
    out = []
    for token in spec.split():
        lo, _, hi = token.partition(":")
        lo = int(lo)
        hi = int(hi) if hi else lo
        if lo < 0:
            lo, hi = lo + long_bits, hi + long_bits
        out.extend(range(lo, hi + 1))
    return out


def ranges(bits):
    """Positions written back as `a:b` ranges (value order kept)."""
    out = []
    for b in bits:
        if out and out[-1][1] + 1 == b:
            out[-1][1] = b
        else:
            out.append([b, b])
    return " ".join(f"{a}:{b}" if a != b else f"{a}" for a, b in out)


def describe(elements, attrs, name, display, alias, length):
    lengths = [int(x) for x in length.split("/")]
    long_bits = 8 * lengths[-1]
    mask = bits = 0
    lbit = default_lbit
    fields = []
    for e in elements:
        tag = e.tag
        if tag in ("exact", "zero"):
            pos = positions(e.attrib["bit"], long_bits)
            if tag == "zero":
                value = 0
            else:
                text = (e.text or "").strip()
                if text and set(text) <= {"0", "1"}:
                    value = int(text, 2)
                else:
                    value = int(attrs[text], 2)
            for k, p in enumerate(pos):
                mask |= 1 << p
                bits |= ((value >> k) & 1) << p
        elif tag == "modifier" and e.attrib.get("name") == "length":
            lbit = int(e.attrib["bit"])
        elif tag in ("dest", "src", "modifier", "immediate"):
            label = e.attrib.get("name", tag)
            kind = e.attrib.get("kind", "")
            role = f"{tag}:{label}" if tag in ("modifier", "immediate") else tag
            fields.append(f"{role}({kind})={ranges(positions(e.attrib['bit'], long_bits))}")
        elif tag in defines:
            role, kind, spec = defines[tag]
            fields.append(f"{role}:{tag}({kind})={ranges(positions(spec, long_bits))}")
    lb = str(lbit) if len(lengths) == 2 else "-"
    return "\t".join(
        [name, display, "1" if alias else "0", length, lb, f"{mask:x}", f"{bits:x}",
         "; ".join(fields)]
    )


print(
    f"# Mesa AGX2.xml (bminor/mesa-mesa commit {commit}, src/asahi/isa/AGX2.xml, MIT, "
    "Copyright 2025 Valve Corporation); scripts/gen-g13-agx2.py; facts only; "
    "NAME, DISPLAY, ALIAS, LENGTH, LBIT, MASK, BITS, FIELDS"
)
for e in root:
    if e.tag == "ins":
        print(describe(list(e), {}, e.attrib["name"], e.attrib.get("display", e.attrib["name"]),
                       e.attrib.get("alias") == "true", e.attrib["length"]))
    elif e.tag == "group":
        shared = [c for c in e if c.tag != "ins"]
        for member in e.findall("ins"):
            name = member.attrib["name"]
            display = member.attrib.get("display", e.attrib.get("display", name))
            alias = "true" in (e.attrib.get("alias"), member.attrib.get("alias"))
            print(describe(shared, member.attrib, name, display, alias, e.attrib["length"]))
