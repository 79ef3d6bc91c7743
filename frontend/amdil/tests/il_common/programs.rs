//! The hand-written IL text programs, in canonical form.

/// An OpenCL-style vector add: raw UAV loads and stores at byte addresses from cb1's arguments.
pub const VECTOR_ADD: &str = "\
il_cs_2_0
dcl_num_thread_per_group 64, 1, 1
dcl_cb cb0[10]
dcl_cb cb1[3]
dcl_raw_uav_id(11)
dcl_literal l0, 0x00000002, 0x00000000, 0x00000000, 0x00000000
mov r0.x___, vAbsTidFlat.x
ishl r0.x___, r0.x, l0.x
iadd r1.x___, r0.x, cb1[0].x
iadd r1._y__, r0.x, cb1[1].x
iadd r1.__z_, r0.x, cb1[2].x
uav_raw_load_id(11)_cached r2.x___, r1.x
uav_raw_load_id(11)_cached r3.x___, r1.y
iadd r2.x___, r2.x, r3.x
uav_raw_store_id(11) mem.x___, r1.z, r2.x
end
";

/// Every structured control-flow form, subroutines, modifiers, LDS and a fence.
pub const CONTROL_FLOW: &str = "\
il_cs_2_0
dcl_num_thread_per_group 64
dcl_lds_id(0) 1024
dcl_literal l0, 0x3F800000, 0x40000000, 0x00000000, 0xBF800000
dcl_literal l1, 0x00000001, 0x0000000A, 0x00000004, 0x00000000
mov r0.x___, vTidInGrpFlat.x
mov r1, l0.xxyy
; count down from ten
mov r2.x___, l1.y
whileloop
    ilt r3.x___, r2.x, l1.x
    break_logicalnz r3.x
    iadd r2.x___, r2.x, l1.x_neg(x)
    ieq r3.x___, r2.x, l1.z
    if_logicalnz r3.x
        continue
    endif
    mad_ieee_sat r1.xy01, r1.yxzw, l0.w_abs, r1_neg(xyzw)
    breakc_relop(ge) r1.x, l0.y
    continue_logicalz r3.x
endloop
switch r0.x
case 0
    mul_x2 r4.x___, r1.x, l0.y
    break
case -1
    add_d2 r4.x___, r1.y, l0.x_neg(x)
    break
default
    mov r4.x___, l0.z
endswitch
ishl r5.x___, r0.x, l1.x
lds_store_id(0) r5.x, r4.x
fence_threads_lds
lds_load_id(0) r6.x___, r5.x
if_logicalz r6.x
    call 1
else
    ifc_relop(lt) r6.x, l0.z
        dmul r7.xy__, r6.xyxy, r6.xyxy
        call_logicalnz r7.y, 2
    endif
endif
endmain
func 1
mov r8.0001, l0
ret_logicalz r8.x
ret
endfunc
func 2
mad_ieee_prec(xy) r9.xy__, r1.xyxx, r1.xyxx, l0.z_bias
ret_dyn
endfunc
end
";

/// Macros (the seed's 7.19 examples, L13237-L13262) and their calls.
pub const MACROS: &str = "\
mdef(0)_out(1)_in(2)
inot r1, in0
ult r2, r1, in1
dcl_literal l1, 0x00000001, 0x00000001, 0x00000001, 0x00000001
iand out0, r2, l1
mend
mdef(5)_out(1)_in(2)_outline
; out0 = in0 + in1
mov r1, in1
iadd out0, in0, r1
mend
il_cs_2_0
dcl_literal l0, 0x00000007, 0x00000009, 0x00000000, 0x00000000
mov r1, vAbsTid.xyz0
mcall(0) (r3), (r1, l0)
mcall(5) (r4), (r3, r2.x)
end
";

/// Indexed temporaries, relative constant buffers, g[], an immediate constant buffer,
/// doubles, 64-bit and conversions, bit operations, the language line.
pub const REGISTERS: &str = "\
dx11_cs
il_cs_2_0
dcl_global_flags refactoringAllowed|enableRawStructuredBuffers
dcl_num_thread_per_group 8, 8, 1
dcl_indexed_temp_array x0[16]
dcl_cb cb1[4]
dcl_cb icb[2] = {0x3F800000, 0x40000000}
dcl_struct_lds_id(1) 16, 64
dcl_typeless_uav_id(10)_stride(4)_length(4)_access(read_write)
dcl_literal l0, 0x00000001, 0x00000002, 0x00000003, 0x00000004
mov x0[r0.x+1], cb1[r0.y].z
mov r1, x0[3].yxwz_abs
mov r2, icb[1]
mov g[r0.x+1], r2
mov r3, g[r0.x-1].xyzw
dadd r3.xy__, r1.xyxy, r2.zwzw
d2f r4.x___, r3.xyxy
i64add r5.__zw, r3.xyxy, r3.xyxy
u64shr r5.xy__, r5.zwzw, l0.x
itof r6, vThreadGrpId.xyz0
ffb(hi) r7, r6
ubit_extract r7.x___, l0.x, l0.y, r6.x
div_zeroop(infinity) r8, r6, l0
uav_raw_store_id(10) mem.xy__, r0.x, r7.xyxx
uav_read_add_id(10) r9.x___, r0.x, l0.x
end
";

pub const PROGRAMS: [(&str, &str); 4] = [
    ("vector add", VECTOR_ADD),
    ("control flow", CONTROL_FLOW),
    ("macros", MACROS),
    ("registers", REGISTERS),
];
