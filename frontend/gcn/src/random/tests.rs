use super::*;
use crate::decode::decode_all;
use crate::inst::{Encoding, Operand};
use std::collections::HashSet;

const SEEDS: u64 = 150;

/// The programs of seeds `0..SEEDS` for `gen` in the default profile.
fn programs(gen: Gen) -> impl Iterator<Item = (u64, RandomProgram)> {
    programs_with(gen, GenConfig::default())
}

fn programs_with(gen: Gen, cfg: GenConfig) -> impl Iterator<Item = (u64, RandomProgram)> {
    (0..SEEDS).map(move |s| {
        let p = generate(gen, s, &cfg).unwrap_or_else(|e| panic!("{gen:?} seed {s}: {e}"));
        (s, p)
    })
}

/// Both profiles' programs for `gen`, with the profile.
fn all_programs(gen: Gen) -> impl Iterator<Item = (Profile, u64, RandomProgram)> {
    [GenConfig::default(), GenConfig::memory_heavy()]
        .into_iter()
        .flat_map(move |cfg| {
            let profile = cfg.profile;
            programs_with(gen, cfg).map(move |(s, p)| (profile, s, p))
        })
}

#[test]
fn programs_decode_and_end_with_s_endpgm() {
    for gen in Gen::ALL {
        for (_, s, p) in all_programs(gen) {
            let d = decode_all(gen, &p.code).unwrap_or_else(|e| panic!("{gen:?} seed {s}: {e}"));
            assert_eq!(d.len(), p.items.len(), "{gen:?} seed {s}");
            for (di, it) in d.iter().zip(&p.items) {
                let mut want = it.inst.clone();
                want.len = di.inst.len;
                assert_eq!(di.inst, want, "{gen:?} seed {s}");
            }
            assert_eq!(
                p.items.last().map(|i| i.inst.opcode),
                Some(crate::inst::Opcode::S_ENDPGM)
            );
        }
    }
}

#[test]
fn programs_reassemble_from_their_text() {
    for gen in Gen::ALL {
        for (_, s, p) in all_programs(gen) {
            let text = p.text();
            let bytes = crate::assemble(gen, &text)
                .unwrap_or_else(|e| panic!("{gen:?} seed {s}: {e}\n{text}"));
            if bytes != p.code {
                let back = decode_all(gen, &bytes).unwrap_or_default();
                let first = p.items.iter().zip(&back).find(|(a, b)| {
                    let mut a = a.inst.clone();
                    a.len = b.inst.len;
                    a != b.inst && a.operand(crate::tables::Field::Branch).is_none()
                });
                let (a, b) = first
                    .map(|(a, b)| {
                        (
                            format!("{} {:?}", crate::print(&a.inst), a.inst),
                            format!("{} {:?}", crate::print(&b.inst), b.inst),
                        )
                    })
                    .unwrap_or_default();
                panic!("{gen:?} seed {s}: text does not reassemble to the same bytes\nfirst difference:\n  {a}\n  {b}");
            }
        }
    }
}

#[test]
fn same_seed_same_program_and_state() {
    let a = generate(Gen::Gfx9, 7, &GenConfig::default()).unwrap();
    let b = generate(Gen::Gfx9, 7, &GenConfig::default()).unwrap();
    assert_eq!(a.code, b.code);
    assert_eq!(InitState::random(7), InitState::random(7));
    let c = generate(Gen::Gfx9, 8, &GenConfig::default()).unwrap();
    assert_ne!(a.code, c.code);
}

#[test]
fn branches_go_forward_except_loop_latches() {
    for gen in Gen::ALL {
        for (s, p) in programs(gen) {
            for (i, it) in p.items.iter().enumerate() {
                let Some(t) = it.target else { continue };
                if t <= i {
                    // A backward branch closes a loop: `s_cbranch_scc1` after `s_cmp_lg_u32 sC, 0`
                    // whose counter is set right before the body.
                    assert_eq!(
                        it.inst.opcode,
                        crate::inst::Opcode::S_CBRANCH_SCC1,
                        "{gen:?} seed {s} item {i}"
                    );
                    let init = &p.items[t - 1].inst;
                    assert_eq!(
                        init.opcode,
                        crate::inst::Opcode::S_MOV_B32,
                        "{gen:?} seed {s} item {i}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_family_and_form_is_generated() {
    for gen in Gen::ALL {
        let mut seen = HashSet::new();
        let mut mods = (false, false, false);
        for (_, p) in programs(gen) {
            for it in &p.items {
                seen.insert(it.inst.encoding);
                let m = it.inst.mods;
                mods.0 |= m.abs != 0;
                mods.1 |= m.neg != 0;
                mods.2 |= m.clamp || m.omod != 0;
            }
        }
        let mut want = vec![
            Encoding::Sop1,
            Encoding::Sop2,
            Encoding::Sopk,
            Encoding::Sopc,
            Encoding::Sopp,
            Encoding::Vop1,
            Encoding::Vop2,
            Encoding::Vopc,
            Encoding::Vop3a,
            Encoding::Vop3b,
            Encoding::Ds,
            if gen >= Gen::Gfx8 {
                Encoding::Smem
            } else {
                Encoding::Smrd
            },
        ];
        if gen >= Gen::Gfx7 {
            want.push(Encoding::Flat);
        }
        if gen >= Gen::Gfx8 {
            want.extend([Encoding::Sdwa, Encoding::Dpp]);
        }
        if gen == Gen::Gfx9 {
            want.extend([Encoding::Vop3p, Encoding::Global]);
        }
        for e in want {
            assert!(
                seen.contains(&e),
                "{gen:?}: no {e:?} instruction in {SEEDS} programs"
            );
        }
        assert_eq!(mods, (true, true, true), "{gen:?}: abs, neg, clamp/omod");
    }
}

/// Forms the generator once avoided because of assembler/decoder/printer bugs (now fixed)
/// appear: a repeated literal, neg on a constant and on a special register, and an inline
/// float on a 16-bit integer VOP3 source.
#[test]
fn formerly_avoided_forms_are_generated() {
    use crate::tables::Ty;
    let (mut twice, mut neg_const, mut neg_special, mut short_float) = (0, 0, 0, 0);
    for gen in Gen::ALL {
        for (_, p) in programs(gen) {
            for it in &p.items {
                let i = &it.inst;
                let srcs = || i.operands.iter().filter(|o| src_field(o.field).is_some());
                let lits = srcs()
                    .filter(|o| matches!(o.value, Operand::Literal(_)))
                    .count();
                twice += (lits == 2) as u32;
                for o in srcs() {
                    let Some(k) = src_field(o.field) else {
                        continue;
                    };
                    let neg = i.mods.neg >> k & 1 != 0 && i.encoding != Encoding::Vop3p;
                    let constant =
                        matches!(o.value, Operand::InlineInt(_) | Operand::InlineFloat(_));
                    let special =
                        o.value.is_reg() && !matches!(o.value, Operand::Sgpr(_) | Operand::Vgpr(_));
                    neg_const += (neg && constant) as u32;
                    neg_special += (neg && special) as u32;
                    let short_int = matches!(i.info.src_ty[k], Ty::I16 | Ty::U16 | Ty::B16);
                    short_float += (matches!(i.encoding, Encoding::Vop3a)
                        && short_int
                        && matches!(o.value, Operand::InlineFloat(_)))
                        as u32;
                }
            }
        }
    }
    assert!(twice > 0, "no instruction reads one literal twice");
    assert!(neg_const > 0, "no neg on an inline constant");
    assert!(neg_special > 0, "no neg on a special register");
    assert!(
        short_float > 0,
        "no inline float on a 16-bit integer VOP3 source"
    );
}

fn src_field(f: crate::tables::Field) -> Option<usize> {
    use crate::tables::Field;
    match f {
        Field::Src0 | Field::Ssrc0 => Some(0),
        Field::Src1 | Field::Ssrc1 => Some(1),
        Field::Src2 => Some(2),
        _ => None,
    }
}

#[test]
fn initial_states_hit_edge_values_and_exec_shapes() {
    let states: Vec<InitState> = (0..200).map(InitState::random).collect();
    assert!(states.iter().any(|s| s.exec == u64::MAX));
    assert!(states.iter().any(|s| s.exec == 0));
    assert!(states.iter().any(|s| s.exec.count_ones() == 1));
    assert!(states.iter().any(|s| s.float_mode >> 4 == 0));
    assert!(states.iter().any(|s| s.float_mode >> 4 == 0xf));
    let all: HashSet<u32> = states
        .iter()
        .flat_map(|s| s.vgprs.iter().flatten().copied())
        .collect();
    for v in [
        0x7fa0_0000u32,
        0x7f80_0000,
        0x8000_0000,
        0x0000_0001,
        0xffff_ffff,
    ] {
        assert!(all.contains(&v), "{v:#x} never generated");
    }
}

/// Lifts `code` and verifies the result; `Ok(None)` when the lifter does not support an
/// instruction yet (its text is returned in the error string otherwise).
fn lift_verify(gen: Gen, code: &[u8], st: &InitState) -> Result<Option<String>, String> {
    use crate::lift::{lift, LiftConfig, LiftError, LiftErrorKind};
    let cfg = LiftConfig {
        gen,
        float_mode: st.float_mode,
        ieee_mode: st.ieee_mode,
        dx10_clamp: st.dx10_clamp,
        base: 0x1000,
        name: "random".into(),
    };
    match lift(code, &cfg) {
        Ok(f) => wavejit_ir::verify::verify(&f)
            .map(|_| None)
            .map_err(|e| format!("does not verify: {e}")),
        Err(LiftError {
            kind: LiftErrorKind::Unsupported,
            text,
            ..
        }) => Ok(Some(text)),
        Err(e) => Err(e.to_string()),
    }
}

/// Every program lifts (instructions the lifter does not support yet are tolerated and
/// listed) and the lifted function verifies. A failure names the single instructions that
/// fail on their own.
#[test]
fn programs_lift_and_verify() {
    let mut unsupported = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for gen in Gen::ALL {
        for (profile, s, p) in all_programs(gen) {
            let st = InitState::random_for(s, profile);
            match lift_verify(gen, &p.code, &st) {
                Ok(None) => {}
                Ok(Some(text)) => {
                    unsupported.insert(format!("{gen:?} {}", text.split(' ').next().unwrap_or("")));
                }
                Err(e) => {
                    let culprits: Vec<String> = p.items[..p.items.len() - 1]
                        .iter()
                        .filter(|it| it.target.is_none())
                        .filter_map(|it| {
                            let end = p.items.last().map(|e| e.inst.clone())?;
                            let one = layout(
                                gen,
                                vec![
                                    Item {
                                        inst: it.inst.clone(),
                                        target: None,
                                    },
                                    Item {
                                        inst: end,
                                        target: None,
                                    },
                                ],
                            )
                            .ok()?;
                            lift_verify(gen, &one.code, &st)
                                .err()
                                .map(|e| format!("`{}`: {e}", crate::print(&it.inst)))
                        })
                        .collect();
                    failures.push(format!(
                        "{gen:?} {profile:?} seed {s}: {e}\n    alone: {culprits:#?}"
                    ));
                }
            }
        }
    }
    eprintln!("unsupported by the lifter: {unsupported:?}");
    assert!(
        failures.is_empty(),
        "{} programs fail to lift or verify:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The memory profile: most instructions are memory instructions; every memory row the
/// profile draws from appears in some program of every generation; every address pattern and
/// the guard sandwich are used; the lifter takes every instruction (none is dropped).
#[test]
fn memory_profile_covers_every_memory_row_and_pattern() {
    use crate::tables::{rows, Family};
    for gen in Gen::ALL {
        let (mut memory, mut total, mut guards) = (0, 0, 0);
        let mut seen = HashSet::new();
        let mut patterns = HashSet::new();
        let mut unsupported = Vec::new();
        for (s, p) in programs_with(gen, GenConfig::memory_heavy()) {
            let st = InitState::random_for(s, Profile::Memory);
            if let Ok(Some(text)) = lift_verify(gen, &p.code, &st) {
                unsupported.push(text);
            }
            for it in &p.items {
                let i = &it.inst;
                total += 1;
                let fam = i.info.family;
                if matches!(
                    fam,
                    Family::Ds | Family::Mubuf | Family::Flat | Family::Global | Family::Scratch
                ) || matches!(i.encoding, Encoding::Smem | Encoding::Smrd)
                {
                    memory += 1;
                    seen.insert(i.opcode);
                }
                for o in &i.operands {
                    match o.value {
                        Operand::Vgpr(v) if v >= PAIR_VGPR => {
                            patterns.insert(if v >= OFFSET_VGPR {
                                v - OFFSET_VGPR
                            } else {
                                (v - PAIR_VGPR) / 2
                            });
                        }
                        Operand::Sgpr(GUARD_SGPR) => guards += 1,
                        _ => {}
                    }
                }
            }
        }
        assert!(
            unsupported.is_empty(),
            "{gen:?}: the lifter refuses {unsupported:?}"
        );
        assert!(
            2 * memory > total,
            "{gen:?}: {memory} memory instructions of {total}"
        );
        assert!(guards > 0, "{gen:?}: no guard sandwich");
        assert_eq!(patterns.len(), Pattern::ALL.len(), "{gen:?}: {patterns:?}");
        let mut missing = Vec::new();
        for fam in [
            Family::Ds,
            Family::Mubuf,
            Family::Flat,
            Family::Global,
            Family::Scratch,
        ] {
            for r in rows(fam).iter().filter(|r| r.opcode_in(gen).is_some()) {
                if pick::generated(r) && !seen.contains(&r.opcode) {
                    missing.push(r.opcode.name());
                }
            }
        }
        assert!(missing.is_empty(), "{gen:?}: never generated: {missing:?}");
    }
}

/// The memory profile's initial states: the guard mask splits the guarded pattern into
/// in-range and out-of-range lanes, and the in-range patterns keep their headroom.
#[test]
fn memory_profile_states_follow_their_patterns() {
    for seed in 0..50 {
        let mut st = InitState::random_for(seed, Profile::Memory);
        assert_eq!(
            InitState::random(seed).vgprs[..VGPR_POOL as usize],
            st.vgprs[..VGPR_POOL as usize],
            "the memory profile keeps the mixed profile's random registers"
        );
        let guard =
            st.sgprs[GUARD_SGPR as usize] as u64 | (st.sgprs[GUARD_SGPR as usize + 1] as u64) << 32;
        let top = BUFFER_BYTES - HEADROOM;
        for p in Pattern::ALL {
            let row = st.vgprs[p.offset_vgpr() as usize];
            for (l, &o) in row.iter().enumerate() {
                let inside = match p {
                    Pattern::Edge => continue,
                    Pattern::Guarded => guard >> l & 1 != 0,
                    _ => true,
                };
                assert_eq!(o <= top, inside, "seed {seed} {p:?} lane {l}: {o:#x}");
            }
        }
        let consecutive = st.vgprs[Pattern::Consecutive.offset_vgpr() as usize];
        assert_eq!(consecutive[63], top);
        assert!(consecutive.windows(2).all(|w| w[1] == w[0] + 4));
        st.set_buffers(0x1_0000_0100);
        let pair = Pattern::Slot.pair_vgpr() as usize;
        assert_eq!(st.vgprs[pair][3], 0x0000_0100 + 3 * LANE_STRIDE);
        assert_eq!(st.vgprs[pair + 1][3], 1);
    }
}
