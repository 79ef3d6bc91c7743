#include "prelude.h"
__kernel void lds(__global int *out, __global const int *in, __local int *tmp) {
  unsigned i = tid();
  tmp[i] = in[i];
  group_barrier();
  out[i] = tmp[(i + 1) & 63] + tmp[i ^ 3];
}
__kernel void lds_atomics(__global int *out, __local int *tmp, __local uint *u) {
  unsigned i = tid();
  atomic_add(tmp, (int)i);
  int a = atomic_sub(tmp + 1, 3);
  int b = atomic_xchg(tmp + 2, (int)i);
  int c = atomic_cmpxchg_l(tmp + 3, 5, (int)i);
  int d = atomic_min(tmp + 4, (int)i) + atomic_max(tmp + 5, (int)i);
  uint e = atomic_min(u, i) + atomic_max(u + 1, i) + atomic_and(u + 2, i) + atomic_or(u + 3, i) + atomic_xor(u + 4, i);
  __local short *s = (__local short *)(u + 8);
  __local char *ch = (__local char *)(u + 16);
  s[i] = (short)i; ch[i] = (char)i;
  group_barrier();
  out[i] = a + b + c + d + (int)e + s[i ^ 1] + ch[i ^ 2] + ((__local ushort *)s)[i ^ 3];
}
__kernel void global_atomics(__global int *p, __global uint *q, int v) {
  unsigned i = tid();
  atomic_add(p, v);
  atomic_sub(p + 1, v);
  atomic_xchg(p + 2, v);
  atomic_cmpxchg_(p + 3, v, (int)i);
  atomic_min(p + 4, v);
  atomic_max(p + 5, v);
  atomic_min(q + 6, i);
  atomic_max(q + 7, i);
  atomic_and(p + 8, v);
  atomic_or(p + 9, v);
  atomic_xor(p + 10, v);
  atomic_add(q + 11, 1u);
  atomic_sub(q + 12, 1u);
}
__kernel void vec_io(__global int4 *out, __global const int2 *in, __constant int *c) {
  unsigned i = tid();
  int2 v = in[i];
  out[i] = (int4)(v.x, v.y, c[i & 7], c[3]);
  ((__global int2 *)out)[i + 100] = v + (int2)(c[5], c[6]);
}
