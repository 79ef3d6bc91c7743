use super::*;
use crate::{decode, encode, lift, parse, print};

const SEEDS: u64 = 300;

fn options() -> [GenOptions; 2] {
    [GenOptions::default(), GenOptions { memory_focus: true }]
}

#[test]
fn every_alu_form_is_a_row_with_its_operands() {
    for f in ALU_FORMS {
        let row = f.row().unwrap_or_else(|| panic!("{}", f.mnemonic));
        assert_eq!(
            (row.dst, usize::from(row.src)),
            (1, f.srcs.len()),
            "{}",
            f.mnemonic
        );
        let control = f.control().unwrap_or_else(|e| panic!("{e}"));
        let inst = Inst {
            control,
            ..Inst::new(row.value)
        };
        assert!(std::ptr::eq(form_of(&inst).unwrap(), f), "{}", f.mnemonic);
    }
}

#[test]
fn generation_is_deterministic() {
    for seed in 0..20 {
        for o in options() {
            assert_eq!(generate(seed, &o), generate(seed, &o));
        }
        assert_eq!(InitialState::random(seed), InitialState::random(seed));
    }
    assert_ne!(
        generate(1, &GenOptions::default()),
        generate(2, &GenOptions::default())
    );
}

/// Prints and parses back, encodes and decodes back, lifts and verifies.
fn check(p: &RandomProgram, what: &str) {
    let program = p.program();
    let text = print::print(&program);
    let parsed = parse::parse(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    assert_eq!(parsed, program, "{what}\n{text}");
    let bytes = encode::encode(&program).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    assert_eq!(
        decode::decode(&bytes),
        Ok(program.clone()),
        "{what}\n{text}"
    );
    let f = lift::lift(&program, "random").unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    wavejit_ir::verify::verify(&f).unwrap_or_else(|e| panic!("{what}: {e:?}\n{text}"));
}

#[test]
fn programs_round_trip_and_lift() {
    for o in options() {
        for seed in 0..SEEDS {
            check(&generate(seed, &o), &format!("seed {seed} {o:?}"));
        }
    }
}

#[test]
fn reductions_round_trip_and_lift() {
    for seed in 0..12 {
        let p = generate(seed, &GenOptions::default());
        let reductions = p.reductions();
        assert!(!reductions.is_empty());
        for (k, r) in reductions.iter().enumerate() {
            check(r, &format!("seed {seed} reduction {k}"));
            assert!(
                r.instructions() <= p.instructions() + 1,
                "seed {seed} reduction {k}"
            );
        }
    }
}

#[test]
fn programs_reach_every_form_and_modifier() {
    let mut seen = BTreeSet::new();
    for o in options() {
        for seed in 0..SEEDS {
            seen.extend(generate(seed, &o).forms());
        }
    }
    for f in ALU_FORMS {
        let control = f.control().unwrap_or_default();
        let name = print::print_inst(&Inst {
            control,
            ..Inst::new(f.row().map_or(0, |r| r.value))
        });
        assert!(seen.contains(&name), "no {name}");
    }
    for form in [
        "ifc_relop(gt)",
        "if_logicalz",
        "else",
        "whileloop",
        "continue_logicalnz",
        "breakc_relop(eq)",
        "continuec_relop(lt)",
        "break",
        "continue",
        "case",
        "default",
        "ret_logicalnz",
        "uav_raw_load_id(11)",
        "uav_raw_store_id(8)",
        "lds_load_id(1)",
        "lds_store_id(1)",
        "fence_threads_lds",
        "dcl_arena_uav_id(8)",
        "dcl_indexed_temp_array",
        "dcl_cb",
        "relative",
        "src_neg",
        "src_abs",
        "src_invert",
        "src_bias",
        "src_x2",
        "src_sign",
        "src_divcomp",
        "src_clamp",
        "dst_sat",
        "dst_x4",
        "dst_d8",
    ] {
        assert!(seen.contains(form), "no {form}: {seen:?}");
    }
}
