#!/usr/bin/python3
"""Runs every kernel of tests/fixtures/manifest.json on pocl through run.py and compares its
outputs with the fixture's expected files, with the manifest's comparison (exact, ulp, abs).

    /usr/bin/python3 benches/pocl/check_fixtures.py [--threads N] [KERNEL...]

Prints one line per kernel (time, verdict); exits 1 if any output differs.
"""
import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def spec_to_arg(spec):
    kind, val = spec.split(":", 1)
    if kind in ("buf",):
        return {"buf": os.path.join(ROOT, val)}
    if kind == "zero":
        return {"zero": int(val, 0)}
    if kind in ("f32", "f64"):
        return {kind: float(val)}
    return {kind: int(val, 0)}


def ordered(bits):
    return bits if bits < 0x80000000 else 0x80000000 - bits


def compare(out, got, want):
    if out["compare"] == "exact" or out["elem"] != "f32":
        if got == want:
            return None
        n = sum(1 for i in range(0, len(want), 4) if got[i:i + 4] != want[i:i + 4])
        return "%d of %d elements differ" % (n, len(want) // 4)
    if len(got) != len(want):
        return "length %d, expected %d" % (len(got), len(want))
    tol, worst, bad = out["tolerance"], 0.0, 0
    for i in range(0, len(want), 4):
        (a,), (b,) = struct.unpack("<f", got[i:i + 4]), struct.unpack("<f", want[i:i + 4])
        if out["compare"] == "ulp":
            (ua,), (ub,) = struct.unpack("<I", got[i:i + 4]), struct.unpack("<I", want[i:i + 4])
            d = abs(ordered(ua) - ordered(ub))
        else:
            d = abs(a - b)
        worst = max(worst, d)
        bad += d > tol
    return None if not bad else "%d elements beyond %s %g (worst %g)" % (
        bad, out["compare"], tol, worst)


def main():
    args = sys.argv[1:]
    threads = 1
    if args[:1] == ["--threads"]:
        threads, args = int(args[1]), args[2:]
    with open(os.path.join(ROOT, "tests/fixtures/manifest.json")) as f:
        kernels = json.load(f)["kernels"]
    failed = 0
    for k in kernels:
        if args and k["kernel"] not in args:
            continue
        req = {"source": os.path.join(ROOT, k["source"]), "kernel": k["kernel"],
               "global": k["global"], "local": k["local"],
               "args": [spec_to_arg(s) for s in k["args"]], "reps": 3, "threads": threads}
        p = subprocess.run([sys.executable, os.path.join(HERE, "run.py")],
                           input=json.dumps(req), capture_output=True, text=True)
        if p.returncode != 0:
            print("%-14s run failed: %s" % (k["kernel"], p.stderr.strip().splitlines()[-1]))
            failed += 1
            continue
        ans = json.loads(p.stdout)
        verdicts = []
        for out in k["outputs"]:
            got = bytes.fromhex(ans["outputs"][str(out["arg"])])
            with open(os.path.join(ROOT, out["expected"]), "rb") as f:
                want = f.read()
            why = compare(out, got, want)
            verdicts.append("%s %s" % (out["name"], "ok" if why is None else why))
            failed += why is not None
        print("%-14s %9.1f us  %s" % (k["kernel"], ans["seconds"] * 1e6, "; ".join(verdicts)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
