#!/usr/bin/env python3
"""Per-instruction profile of JIT-compiled blocks.

Usage:
  WAVEJIT_JIT_DUMP=/tmp/jd perf record -o perf.data wavejit ...   (mkdir /tmp/jd first)
  scripts/jit_annotate.py perf.data /tmp/jd [FUNCTION_NAME_PREFIX]

Reads perf's samples and the perf map the JIT wrote (/tmp/perf-PID.map), attributes each
sample to its function's code dump (WAVEJIT_JIT_DUMP writes one NAME.bin per compiled
block) and prints the disassembly (binutils objdump) with sample counts.
"""
import collections, glob, os, re, subprocess, sys

data, dump = sys.argv[1], sys.argv[2]
prefix = sys.argv[3] if len(sys.argv) > 3 else "wavejit_t2"
out = subprocess.run(["perf", "script", "-i", data, "-F", "pid,ip,sym"],
                     capture_output=True, text=True).stdout
samples = collections.Counter()
pids = set()
for line in out.splitlines():
    parts = line.split()
    if len(parts) >= 3 and parts[2].startswith(prefix):
        pids.add(parts[0])
        samples[(parts[2], int(parts[1], 16))] += 1
starts = {}
for pid in pids:
    for m in open(f"/tmp/perf-{pid}.map"):
        addr, size, name = m.split(maxsplit=2)
        starts.setdefault(name.strip(), []).append(int(addr, 16))
by_fn = collections.defaultdict(collections.Counter)
for (name, ip), n in samples.items():
    base = max(a for a in starts.get(name, [0]) if a <= ip)
    by_fn[name][ip - base] += n
for name, offs in sorted(by_fn.items(), key=lambda kv: -sum(kv[1].values())):
    total = sum(offs.values())
    print(f"== {name}: {total} samples")
    path = os.path.join(dump, name + ".bin")
    if not os.path.exists(path):
        print("   (no dump)")
        continue
    cmd = ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", path]
    dis = subprocess.run(cmd, capture_output=True, text=True).stdout
    for l in dis.splitlines():
        m = re.match(r"\s*([0-9a-f]+):", l)
        if m:
            n = offs.get(int(m.group(1), 16), 0)
            print(f"{n:6d} {100.0 * n / total:5.1f}% {l.strip()}")
