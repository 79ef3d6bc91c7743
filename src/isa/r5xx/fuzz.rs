//! The R5xx part of differential fuzzing ([`crate::fuzz`] is the driver and its policy): the
//! seeded random programs of [`wavejit_r5xx::random`] (every ALU op with random sources,
//! presubtract, swizzles, modifiers, OMOD and clamp; predicates and the ALU result; TEX
//! lookups and TEXKILL; IF/ELSE, loops, REP, BREAK, CONTINUE and calls in the encodings of
//! seed 003 §3.5.4) on one wave: one 16x4 tile of index pairs, started as a `start_program`
//! starts it ([`DomainInit`]), under a random memory-controller state ([`Case`]):
//!
//! - GPU memory of [`GPU_BYTES`] (one guest buffer, watched as `gpu`: outputs and the
//!   conditional buffer land in it, and everything is compared after the run) holding the
//!   float constants (FLOAT32_4 at 0x0, c0-c31), the integer and boolean constants the
//!   program expects (UINT8_4 at 0x800; FLOAT32_1 at 0xc00, 0 or 1), inputs 0-3 (16x16
//!   elements at 0x1000 + 0x1000 k, FLOAT32_4 or another format, linear or tiled), outputs
//!   0-3 (16x4 at 0x5000 + 0x400 t, any format) and the conditional buffer (FLOAT32_1 at
//!   0x6000); every byte random: finite floats of several magnitudes, ±0, ±Inf, NaNs and
//!   denormals;
//! - the domain: the whole tile (0, 0)-(15, 3) or a random part of it;
//! - the conditional unit: off (ALWAYS at the DPP), a random test at the DPP with or without
//!   the conditional write, or conditional execution at the PE with a random coverage;
//! - the multiply mode (US_CONFIG bit 1) at random; r1-r15 random (r0 is the launch's
//!   (i, j, 0, 1)).
//!
//! One campaign, `r5xx`, whose targets are the two chips (the same machine). Reductions are
//! [`wavejit_r5xx::random::RandomProgram::reductions`] with the state kept; the listing is
//! the assembler syntax, which [`wavejit_r5xx::parse::parse_program`] takes back. The
//! generator emits only slots the lifter takes, so any refusal is a failure.

use crate::fuzz::{Campaign, Driver, FuzzIsa};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wavejit_ir::{Function, StateLayout};
use wavejit_isa::{LiftError, RegSink};
use wavejit_r5xx::lift::{self, DomainInit, Tiles};
use wavejit_r5xx::mc::{DataFormat, Surface, Tiling};
use wavejit_r5xx::random::{self, RandomProgram};
use wavejit_r5xx::setup::{Bindings, Cond, CondLoc, CondTest, Setup};
use wavejit_runtime::solo::{hex, Solo};

/// The `--isa` values of R5xx campaigns.
pub const FUZZ_NAMES: &[&str] = &["r5xx"];

/// Guest instructions one run may execute (loops run at most three trips, nest two deep).
pub const FUEL: u64 = 100_000;
/// Bytes of GPU memory a case has.
pub const GPU_BYTES: u32 = 0x8000;
const CONSTF: u32 = 0x0;
const CONSTI: u32 = 0x800;
const CONSTB: u32 = 0xc00;
const INPUTS: u32 = 0x1000;
const OUTPUTS: u32 = 0x5000;
const COND: u32 = 0x6000;

/// The campaign an `--isa` value names.
pub fn campaign(isa: &str) -> Option<Box<dyn Campaign>> {
    // Every case is memory-heavy already (inputs, constants, outputs): no `-mem` variant.
    let (name, memory) = crate::fuzz::split_isa(isa);
    (name == "r5xx" && !memory).then(|| Driver::boxed(R5xxFuzz))
}

/// R5xx programs for the [`Driver`].
pub struct R5xxFuzz;

/// One differential test case: a program and the state it starts from.
#[derive(Clone, Debug)]
pub struct Case {
    pub seed: u64,
    pub program: RandomProgram,
    /// The launch's memory-controller state (its program is filled in when lifting).
    pub setup: Setup,
    pub tiles: Tiles,
    /// Conditional execution at the PE: the covered lanes of the tile.
    pub coverage: Option<u64>,
    /// GPU memory's initial bytes.
    pub gpu: Vec<u8>,
    /// r1-r15, four channels each: `temps[n - 1][c][lane]`.
    pub temps: Vec<[[u32; 64]; 4]>,
}

impl Case {
    /// The setup with the case's program.
    pub fn full_setup(&self) -> Setup {
        let mut s = self.setup.clone();
        s.program = self.program.slots();
        let mut info = self.program.info();
        info.zero_times_anything = self.setup.info.zero_times_anything;
        s.info = info;
        s
    }
}

/// A value of one of the classes the float rules treat differently.
fn value(rng: &mut ChaCha8Rng) -> u32 {
    match rng.gen_range(0..16) {
        0 => 0,
        1 => 0x8000_0000,
        2 => 0x7f80_0000,
        3 => 0xff80_0000,
        4 => 0x7fc0_0000 | rng.gen_range(0..0x40_0000),
        5 => rng.gen_range(1..0x80_0000) | if rng.gen() { 0x8000_0000 } else { 0 },
        6 => (rng.gen_range(-4i32..5) as f32).to_bits(),
        7 => rng.gen(),
        8..=11 => rng.gen_range(-2.0f32..2.0).to_bits(),
        _ => (rng.gen_range(-1000.0f32..1000.0)).to_bits(),
    }
}

fn surface(base: u32, pitch: u32, tiling: Tiling, format: DataFormat, height: u32) -> Surface {
    Surface {
        base,
        pitch,
        tiling,
        format,
        height,
    }
}

const FORMATS: [DataFormat; 5] = [
    DataFormat::Uint16x1,
    DataFormat::Uint8x4,
    DataFormat::Float32x1,
    DataFormat::Float32x2,
    DataFormat::Float32x4,
];

/// The case of `seed` (module doc).
pub fn generate(seed: u64) -> Case {
    let program = random::generate(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_0005_0000_0000);
    let mut gpu: Vec<u8> = (0..GPU_BYTES / 4)
        .flat_map(|_| value(&mut rng).to_le_bytes())
        .collect();
    let mut put = |addr: u32, v: u32| {
        gpu[addr as usize..addr as usize + 4].copy_from_slice(&v.to_le_bytes());
    };
    for (k, &c) in program.int_consts.iter().enumerate() {
        put(CONSTI + 4 * k as u32, c);
    }
    for k in 0..32 {
        put(CONSTB + 4 * k, program.bool_consts >> k & 1);
    }
    let inputs = std::array::from_fn(|k| {
        let base = INPUTS + 0x1000 * k as u32;
        Some(if k < random::INPUTS as usize && rng.gen_bool(0.7) {
            surface(base, 16, Tiling::Linear, DataFormat::Float32x4, 16)
        } else {
            let tiling = if rng.gen() {
                Tiling::Tiled
            } else {
                Tiling::Linear
            };
            surface(base, 16, tiling, FORMATS[rng.gen_range(0..5)], 16)
        })
    });
    let outputs = std::array::from_fn(|t| {
        let tiling = if rng.gen_bool(0.2) {
            Tiling::Tiled
        } else {
            Tiling::Linear
        };
        let format = if rng.gen_bool(0.5) {
            DataFormat::Float32x4
        } else {
            FORMATS[rng.gen_range(0..5)]
        };
        Some(surface(OUTPUTS + 0x400 * t as u32, 16, tiling, format, 4))
    });
    let (i0, j0) = if rng.gen_bool(0.7) {
        (0, 0)
    } else {
        (rng.gen_range(0..16), rng.gen_range(0..4))
    };
    let (i1, j1) = if rng.gen_bool(0.7) {
        (15, 3)
    } else {
        (rng.gen_range(i0..16), rng.gen_range(j0..4))
    };
    let tiles = Tiles::new(i0, j0, i1, j1).expect("a domain inside tile (0, 0)");
    const TESTS: [CondTest; 8] = [
        CondTest::Never,
        CondTest::Less,
        CondTest::LessEqual,
        CondTest::Equal,
        CondTest::GreaterEqual,
        CondTest::Greater,
        CondTest::NotEqual,
        CondTest::Always,
    ];
    let buffer = Some(surface(COND, 16, Tiling::Linear, DataFormat::Float32x1, 4));
    let (cond, coverage) = match rng.gen_range(0..4) {
        0 | 1 => (
            Cond {
                buffer: None,
                test: CondTest::Always,
                loc: CondLoc::Dpp,
                write: false,
                value: 0,
            },
            None,
        ),
        2 => (
            Cond {
                buffer,
                test: TESTS[rng.gen_range(0..8)],
                loc: CondLoc::Dpp,
                write: rng.gen(),
                value: value(&mut rng),
            },
            None,
        ),
        _ => (
            Cond {
                buffer,
                test: TESTS[rng.gen_range(0..8)],
                loc: CondLoc::Pe,
                write: false,
                value: value(&mut rng),
            },
            Some(rng.gen::<u64>() & rng.gen::<u64>().rotate_left(7)),
        ),
    };
    let mut setup = Setup {
        program: Vec::new(),
        info: Default::default(),
        bindings: Bindings {
            inputs,
            outputs,
            out_mask: if rng.gen_bool(0.8) {
                0xf
            } else {
                rng.gen_range(0..16)
            },
            cond,
            constf: Some(surface(
                CONSTF,
                32,
                Tiling::Linear,
                DataFormat::Float32x4,
                1,
            )),
            consti: Some(surface(CONSTI, 8, Tiling::Linear, DataFormat::Uint8x4, 1)),
            constb: Some(surface(
                CONSTB,
                32,
                Tiling::Linear,
                DataFormat::Float32x1,
                1,
            )),
        },
    };
    setup.info.zero_times_anything = rng.gen_bool(0.3);
    let temps = (1..random::TEMPS)
        .map(|_| std::array::from_fn(|_| std::array::from_fn(|_| value(&mut rng))))
        .collect();
    Case {
        seed,
        program,
        setup,
        tiles,
        coverage,
        gpu,
        temps,
    }
}

impl FuzzIsa for R5xxFuzz {
    type Target = &'static str;
    type Case = Case;

    fn targets(&self) -> Vec<&'static str> {
        vec!["r580", "r520"]
    }

    fn target_name(&self, target: &'static str) -> &'static str {
        target
    }

    fn generate(&self, _target: &'static str, seed: u64) -> Result<Case, String> {
        Ok(generate(seed))
    }

    fn lift(&self, case: &Case) -> Result<Function, LiftError> {
        let mut f = lift::lift(&case.full_setup())?.func;
        f.name = format!("r5xx_seed{}", case.seed);
        Ok(f)
    }

    fn without_instruction_at(&self, _case: &Case, _pc: u64) -> Option<Case> {
        None
    }

    fn reductions(&self, case: &Case) -> Vec<Case> {
        case.program
            .reductions()
            .into_iter()
            .map(|program| Case {
                program,
                ..case.clone()
            })
            .collect()
    }

    fn solo(&self, case: &Case, layout: &StateLayout) -> Result<Solo, String> {
        let mut solo = Solo::new(layout, 1 << 20).map_err(|e| format!("guest memory: {e}"))?;
        let base = solo
            .mem
            .alloc_bytes(&case.gpu, 1 << 16)
            .map_err(|e| format!("GPU memory: {e}"))?;
        solo.watch.push(("gpu".into(), base, u64::from(GPU_BYTES)));
        let setup = case.full_setup();
        let l = lift::R5xxLayout::new(layout_temps(layout));
        if l.layout != *layout {
            return Err("the lifted layout is not the R5xx layout".into());
        }
        let init = DomainInit::new(&l, case.tiles, case.coverage.map(|c| vec![c]), base, &setup)?;
        let wave = case.tiles.grid().wave([0, 0, 0], 0);
        use wavejit_isa::WaveInit;
        init.init(&wave, &mut solo.state)?;
        for (n, channels) in case.temps.iter().enumerate() {
            let n = n as u32 + 1;
            if n >= l.temps {
                break;
            }
            for (c, row) in channels.iter().enumerate() {
                solo.state.set_row(l.temp(n, c as u32), row);
            }
        }
        Ok(solo)
    }

    fn listing(&self, case: &Case) -> String {
        case.program.listing()
    }

    fn state_json(&self, case: &Case) -> serde_json::Value {
        let s = &case.setup;
        let surf = |x: &Option<Surface>| x.map(|s| s.to_string()).unwrap_or_default();
        let temps: serde_json::Map<String, serde_json::Value> = case
            .temps
            .iter()
            .enumerate()
            .flat_map(|(n, ch)| {
                ch.iter().enumerate().map(move |(c, row)| {
                    let lanes: Vec<String> = row.iter().map(|v| format!("{v:#010x}")).collect();
                    (
                        format!("r{}.{}", n + 1, ['x', 'y', 'z', 'w'][c]),
                        lanes.into(),
                    )
                })
            })
            .collect();
        serde_json::json!({
            "domain": [case.tiles.i0, case.tiles.j0, case.tiles.i1, case.tiles.j1],
            "pe_coverage": case.coverage.map(|c| format!("{c:#018x}")),
            "cond": format!("{:?}", s.bindings.cond),
            "out_mask": s.bindings.out_mask,
            "zero_times_anything": s.info.zero_times_anything,
            "inputs": s.bindings.inputs.iter().map(surf).collect::<Vec<_>>(),
            "outputs": s.bindings.outputs.iter().map(surf).collect::<Vec<_>>(),
            "temps": temps,
            "gpu_hex": hex(&case.gpu),
            "note": "GPU address 0 is the guest address of the `gpu` buffer; constants at 0x0 \
                     (float), 0x800 (int), 0xc00 (bool); r0 = (i, j, 0, 1) of tile (0, 0)",
        })
    }

    fn instructions(&self, case: &Case) -> usize {
        case.program.slots().len()
    }

    /// The ops of the listing: `fc loop`, `tex ld`, `alu mad`, `out rcp` (an ALU or OUTPUT
    /// slot counts its RGB and its alpha op).
    fn forms(&self, case: &Case) -> Vec<String> {
        let mut forms = Vec::new();
        for line in case.program.listing().lines() {
            let mut words = line.split_whitespace();
            let Some(kind) = words.next() else { continue };
            match kind {
                "fc" => forms.extend(words.next().map(|op| format!("fc {op}"))),
                _ => {
                    let code = line.split(" {").next().unwrap_or(line);
                    for half in code.split(" ; ") {
                        let op = half
                            .split(" = ")
                            .nth(1)
                            .and_then(|r| r.split_whitespace().next());
                        if let Some(op) = op {
                            let op = op.split('.').next().unwrap_or(op);
                            forms.push(format!("{kind} {op}"));
                        }
                    }
                }
            }
        }
        forms.sort();
        forms.dedup();
        forms
    }

    fn fuel(&self) -> u64 {
        FUEL
    }
}

/// The temporaries of an R5xx layout (its `r` file's cells / 4).
fn layout_temps(layout: &StateLayout) -> u32 {
    layout
        .files
        .iter()
        .find(|f| f.name == "r")
        .map_or(1, |f| f.cells / 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_names_name_campaigns() {
        for name in FUZZ_NAMES {
            assert!(campaign(name).is_some(), "{name}");
        }
        assert!(campaign("g13").is_none());
    }
}
