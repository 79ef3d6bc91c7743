// ALU-heavy benchmark kernel: a uniform loop of float and integer work per work-item.
// `active` = 4 keeps every lane active; 3 disables every fourth lane (mixed exec masks).
// benches/native.rs (src/bench.rs) holds the same computation in Rust (the native reference).
typedef unsigned int uint;

// The work-item's ids: the amdgcn builtins, or their r600 spellings (LLVM's r600 target has no
// `__builtin_amdgcn_workgroup_id_x`).
#ifdef __R600__
#define GROUP_ID_X() __builtin_r600_read_tgid_x()
#define LOCAL_ID_X() __builtin_r600_read_tidig_x()
#else
#define GROUP_ID_X() __builtin_amdgcn_workgroup_id_x()
#define LOCAL_ID_X() __builtin_amdgcn_workitem_id_x()
#endif

kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void alu_heavy(global float *out, global const float *in, uint iters, uint active) {
    uint i = GROUP_ID_X() * 64u + LOCAL_ID_X();
    float a = in[i];
    float b = a * 0.5f + 1.0f;
    float c = 1.0f - a;
    uint h = i * 2654435761u + 1u;
    if ((i & 3u) < active) {
        for (uint k = 0; k < iters; k++) {
            a = __builtin_fmaf(a, b, c);
            b = __builtin_fminf(b * 0.999f, a + 3.0f);
            c = __builtin_fmaxf(c - 0.25f, -a);
            h ^= h << 13;
            h ^= h >> 17;
            h ^= h << 5;
            a = a * 0.5f + (float)(h & 255u) * 0.001f;
        }
    }
    out[i] = a + b + c + (float)(h & 0xffffu);
}
