/* pocl side of tests/fixtures/src/gpu.h: the fixture kernels built as real OpenCL C 1.2 by pocl
 * (benches/pocl/run.py passes -I on this directory, so `#include "gpu.h"` finds this file).
 *
 * Everything tests/fixtures/src/gpu.h defines is either built into OpenCL C (uint, INT_MIN,
 * CLK_*_MEM_FENCE, barrier, as_uint, as_float, fma, fmin, fmax, sqrt, rsqrt, exp2, log2, sin,
 * cos, rint, floor, ceil, trunc, fabs, popcount, atomic_add/min/max/or) or defined below with
 * the fixture header's meaning:
 *   - FP_CONTRACT OFF: the fixture scripts compile with -ffp-contract=off, and the expected
 *     outputs round every product and sum separately; OpenCL C contracts by default, and on a
 *     CPU with FMA that would change the results.
 *   - work-item functions return uint, as in the fixture header (OpenCL's return size_t).
 * The atomics stay OpenCL's (pocl defines them as macros already); the kernels never use the
 * old value they return.
 */
#ifndef WAVEJIT_FIXTURE_GPU_H
#define WAVEJIT_FIXTURE_GPU_H

#pragma OPENCL FP_CONTRACT OFF

#define REQD_WORK_GROUP_SIZE(x, y, z) __attribute__((reqd_work_group_size(x, y, z)))
#define NO_UNROLL _Pragma("unroll 1")

/* A function-like macro does not expand inside its own expansion: these call the built-ins. */
#define get_local_id(d) ((uint)get_local_id(d))
#define get_group_id(d) ((uint)get_group_id(d))
#define get_local_size(d) ((uint)get_local_size(d))
#define get_global_size(d) ((uint)get_global_size(d))
#define get_global_id(d) ((uint)get_global_id(d))

#endif
