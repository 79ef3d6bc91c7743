#include "prelude.h"
__kernel void branch(__global int *out, __global const int *in, int n) {
  unsigned i = tid();
  int v = in[i];
  if (v > n) { v = v * 3 + in[i + 1]; } else if (v < 0) { v = -v; out[i + 1] = v; } else { v = n; }
  out[i] = v;
}
__kernel void loop(__global int *out, __global const int *in, int n) {
  unsigned i = tid();
  int acc = 0;
  for (int k = 0; k < n; ++k) {
    int x = in[i + k];
    if (x == 42) break;
    if (x & 1) continue;
    acc += x * k;
  }
  out[i] = acc;
}
__kernel void nested(__global float *out, __global const float *in, int n, int m) {
  unsigned i = tid();
  float acc = 0.0f;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < m; ++b)
      acc += in[a * m + b] * (float)(i + b);
  out[i] = acc;
}
