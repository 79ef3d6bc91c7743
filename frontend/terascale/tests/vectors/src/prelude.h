typedef unsigned long ulong;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef int int2 __attribute__((ext_vector_type(2)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef float float4 __attribute__((ext_vector_type(4)));
unsigned tid(void) __asm("llvm.r600.read.tidig.x");
unsigned tgid(void) __asm("llvm.r600.read.tgid.x");
unsigned lsize(void) __asm("llvm.r600.read.local.size.x");
void group_barrier(void) __asm("llvm.r600.group.barrier");
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define atomic_add(p, v) __atomic_fetch_add(p, v, __ATOMIC_RELAXED)
#define atomic_sub(p, v) __atomic_fetch_sub(p, v, __ATOMIC_RELAXED)
#define atomic_xchg(p, v) __atomic_exchange_n(p, v, __ATOMIC_RELAXED)
#define atomic_min(p, v) __atomic_fetch_min(p, v, __ATOMIC_RELAXED)
#define atomic_max(p, v) __atomic_fetch_max(p, v, __ATOMIC_RELAXED)
#define atomic_and(p, v) __atomic_fetch_and(p, v, __ATOMIC_RELAXED)
#define atomic_or(p, v) __atomic_fetch_or(p, v, __ATOMIC_RELAXED)
#define atomic_xor(p, v) __atomic_fetch_xor(p, v, __ATOMIC_RELAXED)
static inline int atomic_cmpxchg_(volatile __global int *p, int c, int v) {
  __atomic_compare_exchange_n(p, &c, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return c;
}
static inline int atomic_cmpxchg_l(volatile __local int *p, int c, int v) {
  __atomic_compare_exchange_n(p, &c, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return c;
}
