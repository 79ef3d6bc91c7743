// Regression fixture for the loader's guest-address lookup (issue 8, item 9).
//
// The kernel's name is 43 characters long: with LLVM 14 (clang-14 -mcpu=gfx900, ld.lld-14
// -shared) that makes .dynstr end exactly where .rodata, which holds the kernel descriptor,
// begins (0x540). A lookup that took the first section whose range reaches an address found
// an empty slice at the end of .dynstr and reported the descriptor outside the file.
// Regenerate with scripts/gen-boundary-fixture.sh, which checks that condition.
__kernel void kernel_name_ending_dynstr_at_rodata_address(__global float *out, float x) {
    out[__builtin_amdgcn_workitem_id_x()] = x * 2.0f;
}
