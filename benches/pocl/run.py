#!/usr/bin/python3
"""Runs one OpenCL C kernel on pocl's CPU device and reports its kernel time and outputs.

Run it with /usr/bin/python3 (Debian's python3-pyopencl is installed for the system Python
only; a pyenv `python3` earlier on PATH does not see it). See benches/pocl/README.md.

    /usr/bin/python3 benches/pocl/run.py < request.json    -> answer JSON on stdout
    /usr/bin/python3 benches/pocl/run.py --version         -> one line: pocl and device

Request (JSON on stdin):
    source   path of the .cl file (relative paths: to the working directory, then to the
             repository root)
    kernel   kernel name
    global   [x, y, z] global size (work-items)
    local    [x, y, z] work-group size, or null to let pocl choose
    args     kernel arguments in order, each one of
               {"buf": PATH or HEX}  buffer with the file's bytes (an existing file wins) or
                                     the bytes of a hex string
               {"zero": N}           buffer of N zero bytes
               {"u32": V} {"i32": V} {"u64": V} {"i64": V} {"f32": V} {"f64": V}  by value
    reps     timed runs (default 5); the answer gives the median
    threads  pocl worker threads (POCL_MAX_PTHREAD_COUNT); default: pocl's (one per core)
    warmup   untimed runs first (default 1: pocl compiles the work-group function for the
             local size at the first launch)
    out_dir  where "outputs_as": "files" writes the buffers (default: a new temporary dir)
    outputs_as  "hex" (default) or "files"
    options  extra OpenCL build options (string), appended to the default ones

Every run starts from the request's buffer contents (they are uploaded again before each run,
outside the timed kernel), so the outputs are those of exactly one run.

Answer (JSON on stdout):
    seconds  median of COMMAND_END - COMMAND_START over the timed runs, in seconds
    times    every timed run, in seconds
    outputs  {"I": hex or file path} for every buffer argument I (0-based argument index)
    device, version, build_options
Errors: a message on stderr (last line) and exit status 1.
"""
import json
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SHIM = os.path.join(HERE, "include")
# The OpenCL counterparts of the clang flags of scripts/fixtures/common.sh (CL_FLAGS):
# -cl-std=CL1.2; -O2 is pocl's default; -ffp-contract=off is `#pragma OPENCL FP_CONTRACT OFF`
# in include/gpu.h; -cl-no-stdinc -nogpulib do not apply (pocl needs its own library).
BUILD_OPTIONS = ["-cl-std=CL1.2", "-I" + SHIM]


def fail(msg):
    sys.stderr.write("pocl runner: %s\n" % msg)
    sys.exit(1)


def resolve(path):
    if os.path.isabs(path) or os.path.exists(path):
        return path
    alt = os.path.join(ROOT, path)
    return alt if os.path.exists(alt) else path


def pocl_device(cl):
    for p in cl.get_platforms():
        if "pocl" in p.name.lower() or "portable computing language" in p.name.lower():
            devs = p.get_devices(device_type=cl.device_type.CPU) or p.get_devices()
            if devs:
                return p, devs[0]
    fail("no pocl platform with a CPU device (apt-get install pocl-opencl-icd)")


def version_line(p, d):
    v = p.version
    pocl = next((w + " " + v.split(w, 1)[1].split()[0] for w in ["PoCL"] if w in v), v)
    llvm = v.split("LLVM", 1)[1].split(",")[0].strip() if "LLVM" in v else "?"
    return "%s (LLVM %s), %s" % (pocl, llvm, d.name)


def buffer_bytes(spec):
    if isinstance(spec, str):
        p = resolve(spec)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                return f.read()
        try:
            if len(spec) % 2 == 0:
                return bytes.fromhex(spec)
        except ValueError:
            pass
    fail("buf %.60r is neither a file nor a hex string" % (spec,))


def main():
    if "--version" in sys.argv[1:]:
        import pyopencl as cl
        p, d = pocl_device(cl)
        print(version_line(p, d))
        return
    try:
        req = json.load(sys.stdin)
    except ValueError as e:
        fail("request is not JSON: %s" % e)
    threads = req.get("threads")
    if threads is not None:
        if int(threads) < 1:
            fail("threads must be >= 1")
        # Read when pocl initialises its devices, i.e. at the first OpenCL call.
        os.environ["POCL_MAX_PTHREAD_COUNT"] = str(int(threads))
    import numpy as np
    import pyopencl as cl

    plat, dev = pocl_device(cl)
    if threads is not None and dev.max_compute_units != int(threads):
        fail("asked for %s threads, pocl reports %d compute units"
             % (threads, dev.max_compute_units))
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)

    src_path = resolve(req["source"])
    try:
        with open(src_path) as f:
            source = f.read()
    except OSError as e:
        fail("source: %s" % e)
    options = BUILD_OPTIONS + (req.get("options", "").split() if req.get("options") else [])
    try:
        program = cl.Program(ctx, source).build(options=options)
    except cl.RuntimeError as e:
        fail("build failed: %s" % str(e).replace("\n", " | "))
    if req["kernel"] not in program.kernel_names.split(";"):
        fail("no kernel %r in %s" % (req["kernel"], src_path))
    kernel = getattr(program, req["kernel"])

    scalar = {"u32": np.uint32, "i32": np.int32, "u64": np.uint64, "i64": np.int64,
              "f32": np.float32, "f64": np.float64}
    initial = {}  # arg index -> bytes
    buffers = {}
    for i, a in enumerate(req["args"]):
        if len(a) != 1:
            fail("argument %d: expected one key, got %r" % (i, a))
        (kind, v), = a.items()
        if kind in ("buf", "zero"):
            data = buffer_bytes(v) if kind == "buf" else bytes(int(v))
            initial[i] = data
            buffers[i] = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, max(len(data), 1))
            kernel.set_arg(i, buffers[i])
        elif kind in scalar:
            kernel.set_arg(i, scalar[kind](v))
        else:
            fail("argument %d: unknown kind %r" % (i, kind))

    gsize = tuple(int(x) for x in req["global"])
    lsize = tuple(int(x) for x in req["local"]) if req.get("local") else None
    reps = int(req.get("reps", 5))
    warmup = int(req.get("warmup", 1))
    if reps < 1:
        fail("reps must be >= 1")

    times = []
    for r in range(warmup + reps):
        for i, data in initial.items():
            if data:
                cl.enqueue_copy(queue, buffers[i], data, is_blocking=False)
        queue.finish()
        ev = cl.enqueue_nd_range_kernel(queue, kernel, gsize, lsize)
        ev.wait()
        if r >= warmup:
            times.append((ev.profile.end - ev.profile.start) * 1e-9)

    outputs = {}
    as_files = req.get("outputs_as", "hex") == "files"
    out_dir = req.get("out_dir") or (tempfile.mkdtemp(prefix="pocl-out-") if as_files else None)
    for i, data in initial.items():
        out = np.empty(len(data), dtype=np.uint8)
        if len(data):
            cl.enqueue_copy(queue, out, buffers[i], is_blocking=True)
        if as_files:
            os.makedirs(out_dir, exist_ok=True)
            path = os.path.join(out_dir, "arg%d.out.bin" % i)
            out.tofile(path)
            outputs[str(i)] = path
        else:
            outputs[str(i)] = out.tobytes().hex()

    json.dump({"seconds": statistics.median(times), "times": times, "outputs": outputs,
               "device": dev.name, "version": version_line(plat, dev),
               "build_options": " ".join(options)}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
