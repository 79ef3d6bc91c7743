#include "prelude.h"
__kernel void arith(__global int *out, __global const int *in, int n, float f) {
  unsigned i = tid() + tgid() * lsize();
  int v = in[i];
  float x = (float)v * f + 0.5f;
  out[i] = (v * n) ^ (v >> 3) ^ (int)((unsigned)v >> 5) ^ (v << 7) ^ (int)x ^ (v - n) ^ min(v, n) ^ max(v, -17)
         ^ (int)((unsigned)v / 3u) ^ (v & 0xff00) ^ ~v ^ (int)__builtin_sqrtf(x) ^ (int)(1.0f / x)
         ^ (int)__builtin_floorf(x) ^ (int)__builtin_ceilf(x) ^ (int)__builtin_fabsf(x) ^ (int)(x > 2.0f ? x : -x) ^ (int)(x * f + 1.25f)
         ^ (int)(unsigned)x ^ (int)__builtin_exp2f(x) ^ (int)__builtin_log2f(x) ^ __builtin_clz(v) ^ __builtin_popcount(v) ^ ((v << 8 >> 8) * (n << 8 >> 8)) ^ ((v & 0xffffff) * (n & 0xffffff) + 3)
         ^ (int)(unsigned)(((ulong)(unsigned)v * 77ul) >> 32) ^ (int)(((unsigned)v << 5) | ((unsigned)v >> 27)) ^ (int)((v & ~0x0f0f0f0f) | (n & 0x0f0f0f0f))
         ^ (int)(-1) ^ (int)0x7fffffff;
}
__kernel void fpu(__global float4 *out, __global const float4 *in, float s) {
  unsigned i = tid();
  float4 a = in[i], b = in[i + 1];
  out[i] = a * b + (float4)(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w) + (float4)(1.0f) / a + b.wzyx + (a > b ? a : b) * s - b.yxwz + a.zwxy;
}
__kernel void dbl(__global ulong *out, __global const ulong *in, ulong k) {
  unsigned i = tid();
  ulong v = in[i];
  out[i] = v * k + (v >> 13) + (v << 3) + (v ^ k) + (v > k ? 1 : 2);
}
__kernel void bytes(__global uchar *out, __global const ushort *in, __global short *o2, __global const char *c) {
  unsigned i = tid();
  out[i] = (uchar)(in[i] + c[i]);
  o2[i] = (short)(in[i] * 3 + (int)c[i + 2]);
}
