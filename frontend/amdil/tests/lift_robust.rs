//! The lifter on malformed input: token streams of a program using every lifted instruction
//! form, mutated at random, either fail to decode, or lift to a function the IR verifier
//! accepts, or are refused with a one-line error; the lifter never panics.

use wavejit_amdil::{decode, encode, lift, parse};

/// Every lifted instruction form at least once.
const ALL: &str = "il_cs_2_0
dcl_num_thread_per_group 64
dcl_cb cb0[10]
dcl_cb cb1[4]
dcl_raw_uav_id(11)
dcl_lds_id(1) 256
dcl_indexed_temp_array x0[4]
dcl_literal l0, 0x00000002, 0x3F800000, 0x00000004, 0xFFFFFFFF
mov r0, vAbsTid
mov r1, vTidInGrp.xyzx
mov r2.x___, vThreadGrpIdFlat.x
mov r2._y__, vAbsTidFlat.x
mov r2.__z_, vTidInGrpFlat.x
mov r2.___w, vThreadGrpId.y
add_x2_sat r3, r0_neg(xy), r1_abs
sub r3.x0_1, r3_invert, r3_bias
mul r4, r3_bx2, r3_sign
mul_ieee_d2 r4, r3, r4_divcomp(y)
mad r5, r4, r3, r2_clamp
mad_ieee r5, r4, r3, r5
fma r5, r5, r5, r5
max r6, r5, r4
min_ieee r6, r6, r5.wzyx
flr r7, r6
frc r7, r7
rnd r7.x, r7.y
round_nearest r7.y, r7.z
round_neginf r7.z, r7.w
round_plusinf r7.w, r7.x
round_z r7, r7
div_zeroop(infinity) r8, r7, r6
eq r9, r8, r7
ge r9, r9, r8
lt r9, r9, r8
ne r9, r9, r8
cmov r9, r8, r7
cmov_logical r9, r9, r8, r7
abs r9, r9
iadd r10, r0, r1_neg(x)
inegate r10, r10
imul r10, r10, cb1[0]
imul_high r10, r10, cb1[r0.x+1]
umul r10, r10, r10
umul_high r10, r10, r10
imad r10, r10, r10, r10
umad r10, r10, r10, r10
imul24 r10, r10, r10
umul24 r10, r10, r10
imad24 r10, r10, r10, r10
umad24 r10, r10, r10, r10
imul24_high r10, r10, r10
umul24_high r10, r10, r10
imax r11, r10, r0
imin r11, r11, r0
umax r11, r11, r0
umin r11, r11, r0
ieq r11, r11, r0
ige r11, r11, r0
ilt r11, r11, r0
ine r11, r11, r0
uge r11, r11, r0
ult r11, r11, r0
ishl r11, r11, l0.x
ishr r11, r11, l0.x
ushr r11, r11, l0.x
udiv r11, r11, l0.z
umod r11, r11, l0.z
icarry r11, r11, r0
iborrow r11, r11, r0
iand r11, r11, r0
ior r11, r11, r0
ixor r11, r11, r0
inot r11, r11
ibit_extract r11, r11, r0, r1
ubit_extract r11, r11, r0, r1
ubit_insert r11, r11, r0, r1, r2
icbits r11, r11
ubit_reverse r11, r11
ffb(lo) r11, r11
ffb(hi) r11, r11
ffb(shi) r11, r11
ftoi r12, r9
ftou r12, r9
itof r12, r12
utof r12, r12
mov x0[1], r12
mov x0[r0.x], r12
mov r13, x0[r0.x+1]
ishl r14.x, vTidInGrpFlat.x, l0.x
uav_raw_load_id(11) r15, r14.x
uav_raw_store_id(11) mem.x_z1, r14.x, r15
lds_store_id(1) r14.x, r15.x
fence_threads_lds
lds_load_id(1) r15.x___, r14.x
fence_memory
if_logicalnz r15.x
    ifc_relop(lt) r15.x, r15.y
        mov r16, r15
    else
        mov r16, r14
    endif
else
    mov r16, r13
endif
if_logicalz r16.x
endif
whileloop
    break_logicalnz r16.x
    continue_logicalz r16.y
    breakc_relop(ge) r16.z, l0.y
    continuec_relop(ne) r16.w, l0.y
    switch r16.x
    case 0
        break
    case -1
        continue
    default
        iadd r16, r16, l0.w
    endswitch
    ret_logicalz r16.z
    if_logicalnz r16.y
        break
    endif
    continue
endloop
ret_logicalnz r16.w
ret_dyn
endmain
end
";

/// A small deterministic generator (the stream must be reproducible).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }
}

#[test]
fn the_whole_program_lifts_and_verifies() {
    let p = parse::parse(ALL).unwrap();
    let f = lift::lift(&p, "all").unwrap_or_else(|e| panic!("{e}"));
    wavejit_ir::verify::verify(&f).unwrap();
}

#[test]
fn mutated_streams_lift_verify_or_are_refused() {
    let p = parse::parse(ALL).unwrap();
    let bytes = encode::encode(&p).unwrap();
    let words: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut rng = Lcg(11);
    let (mut lifted, mut refused) = (0, 0);
    for _ in 0..3000 {
        let mut w = words.clone();
        for _ in 0..1 + rng.next() % 3 {
            let at = rng.next() as usize % w.len();
            match rng.next() % 3 {
                0 => w[at] ^= 1 << (rng.next() % 32),
                1 => w[at] = rng.next(),
                _ => {
                    w.remove(at);
                }
            }
        }
        let Ok(q) = decode::decode_words(&w) else {
            continue;
        };
        match lift::lift(&q, "m") {
            Ok(f) => {
                if let Err(e) = wavejit_ir::verify::verify(&f) {
                    panic!(
                        "{}\ndoes not verify: {e:?}",
                        wavejit_amdil::print::print(&q)
                    );
                }
                lifted += 1;
            }
            Err(e) => {
                assert!(!e.to_string().contains('\n'), "{e}");
                refused += 1;
            }
        }
    }
    // The mutants exercise both outcomes.
    assert!(
        lifted > 100 && refused > 100,
        "{lifted} lifted, {refused} refused"
    );
}
