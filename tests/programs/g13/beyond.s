; beyond: registers past r127, which the lifter refuses (the hardware would reach another
; SIMD-group's registers). Two kernels:
; - pair_source: a 64-bit source starting at r127 (r127_r128);
; - range_past: a device_load into the range r126_r127_r128.
.globl pair_source
.globl range_past
pair_source:
    iadd r4_r5, r127_r128, 1
    stop
range_past:
    device_load 0, i32, xyz, r126_r127_r128, u0_u1, 0, unsigned
    wait 0
    stop
