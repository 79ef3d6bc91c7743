#include "prelude.h"
typedef struct { int a[80]; } big;
__kernel void many_args(__global int *out, big b, int tail0, int tail1) {
  unsigned i = tid();
  out[i] = b.a[0] + b.a[17] + b.a[40] + b.a[63] + b.a[79] + tail0 * tail1 + b.a[i & 3];
}
__kernel void pv_ps(__global float *out, float a, float b, float c, float d) {
  unsigned i = tid();
  float x = (float)i;
  float y = x * a + b;
  float z = y * y - c;
  out[i] = (z * d + y) / (x + 1.0f) + (float)(int)(y) - 0.0f;
}
