//! Seeded random valid IR, for differential testing of the interpreter against the JIT.
//!
//! [`generate`] returns a function that passes [`crate::verify::verify`] and terminates on
//! every initial state. Its layout has three files:
//! - `s`: uniform data registers ([`Options::uniform_regs`] cells),
//! - `v`: lane data registers ([`Options::lane_regs`] cells),
//! - `c`: uniform loop counters, one per block, set by block 0 and written only by the loop
//!   back edges.
//!
//! The caller fills `s` and `v` with random cells (for instance [`edge_cells`]) and runs both
//! engines from the same state and memory; anything the program writes (registers, buffers,
//! faults) must agree bit for bit.
//!
//! # Termination
//! Every edge goes to a later block except loop back edges. The back edge leaving block `i`
//! (to a block in `1..=i`) is taken only while counter `c[i]` is non-zero and decrements it
//! (saturating); block 0, which sets the counters, is never re-entered. So each back edge is
//! taken at most [`Options::max_loop_trips`] times, and a run executes at most
//! `blocks * (1 + blocks * max_loop_trips)` blocks.
//!
//! # What is not generated
//! Races the IR leaves undefined: lanes storing different values to one address (lane stores
//! use a per-lane permutation of slots; a uniform address stores a uniform value). Register
//! accesses narrower than 32 bits (narrow values are widened before a write). Misaligned
//! memory accesses. LDS accesses straddling the end of the allocation.

mod body;
mod memory;
mod ops;
mod values;

pub use ops::{signatures, Signature};
pub use values::{edge_bits, edge_cell, edge_cells, float_mode, EDGE_CELLS};

use crate::func::*;
use crate::op::Op;
use crate::state::{FileId, FileKind, Reg, RegFile, StateLayout};
use crate::types::{ScalarType, Type};
use body::BodyGen;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A device buffer the program may access: `len` bytes at guest address `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalBuffer {
    pub base: u64,
    pub len: u64,
}

/// What to generate. `Default` enables every family that cannot fault, with no memory.
#[derive(Clone, Debug)]
pub struct Options {
    /// Lanes per wave (a multiple of 4 in 4..=64; other values are rounded into that range).
    pub wave_size: u32,
    /// Cells of the uniform data file `s` (at least 2).
    pub uniform_regs: u32,
    /// Cells of the lane data file `v` (at least 2).
    pub lane_regs: u32,
    /// Blocks per function: 1 to this many (at least 1).
    pub max_blocks: u32,
    /// Instructions per block: about 1 to this many, plus the terminator's.
    pub max_block_insts: u32,
    /// The most times each loop back edge is taken.
    pub max_loop_trips: u32,
    /// The pure ops to use (every op with every parameter by default; `|_| false` disables
    /// pure ops beyond what the other families need).
    pub op_filter: fn(Op) -> bool,
    /// Random float modes (flush in/out, the four roundings); otherwise the IEEE default.
    pub float_modes: bool,
    /// Lane register writes (plain and indexed), lane stores, loads and atomics take random
    /// masks; otherwise none.
    pub masked_writes: bool,
    /// `ballot`, `mask_from_bits`, `read_lane`, `shuffle`.
    pub cross_lane: bool,
    /// Indexed register reads and writes (in range unless `faults`).
    pub indexed_regs: bool,
    /// Loads, stores (and atomics) to this buffer.
    pub global: Option<GlobalBuffer>,
    /// Bytes of LDS the program may use (loads, stores, atomics).
    pub lds_bytes: Option<u32>,
    /// Bytes of private memory per lane (loads and stores).
    pub private_bytes: Option<u32>,
    /// Atomics (global and LDS) among the memory operations.
    pub atomics: bool,
    /// LDS addresses past the allocation in some lanes (defined: reads give 0, writes drop).
    pub lds_out_of_range: bool,
    /// `barrier` terminators. Waves of one workgroup may take different paths, so use with
    /// one wave per workgroup.
    pub barriers: bool,
    /// `jump_indirect` terminators (through the blocks' guest pcs).
    pub indirect_jumps: bool,
    /// Operations that may raise a guest fault: private and global accesses out of range
    /// (global ones at addresses below 32, which must be unmapped), indexed register accesses
    /// outside their file, indirect jumps to no block, explicit traps.
    pub faults: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            wave_size: 64,
            uniform_regs: 16,
            lane_regs: 16,
            max_blocks: 5,
            max_block_insts: 40,
            max_loop_trips: 3,
            op_filter: |_| true,
            float_modes: true,
            masked_writes: true,
            cross_lane: true,
            indexed_regs: true,
            global: None,
            lds_bytes: None,
            private_bytes: None,
            atomics: true,
            lds_out_of_range: true,
            barriers: true,
            indirect_jumps: true,
            faults: false,
        }
    }
}

/// The register files of a generated function.
#[derive(Clone, Copy, Debug)]
struct Files {
    s: FileId,
    v: FileId,
    c: FileId,
}

/// Guest pc of block `i` (every block has one, so indirect jumps can reach any).
fn block_pc(i: u32) -> u64 {
    0x1000 + 0x400 * u64::from(i)
}

/// The function of `seed` under `opts`; the same pair always gives the same function.
pub fn generate(seed: u64, opts: &Options) -> Function {
    let mut opts = opts.clone();
    opts.wave_size = opts.wave_size.clamp(4, 64) / 4 * 4;
    opts.uniform_regs = opts.uniform_regs.max(2);
    opts.lane_regs = opts.lane_regs.max(2);
    let opts = &opts;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = rng.gen_range(1..=opts.max_blocks.max(1));
    let files = Files {
        s: FileId(0),
        v: FileId(1),
        c: FileId(2),
    };
    let layout = StateLayout {
        wave_size: opts.wave_size,
        files: vec![
            RegFile {
                name: "s".into(),
                kind: FileKind::Uniform,
                cells: opts.uniform_regs,
                written_first: false,
            },
            RegFile {
                name: "v".into(),
                kind: FileKind::Lane,
                cells: opts.lane_regs,
                written_first: false,
            },
            RegFile {
                name: "c".into(),
                kind: FileKind::Uniform,
                cells: n,
                written_first: false,
            },
        ],
    };
    let ops: Vec<Op> = crate::text::all_ops()
        .into_iter()
        .filter(|&op| (opts.op_filter)(op))
        .collect();
    let mut blocks = Vec::new();
    for i in 0..n {
        let pc = block_pc(i) as u32;
        let mut g = BodyGen::new(&mut rng, opts, files, &ops, pc);
        if i == 0 {
            for k in 0..n {
                let trips = g.rng.gen_range(0..=opts.max_loop_trips);
                let t = g.konst(ScalarType::I32, u64::from(trips));
                g.push(
                    InstKind::WriteReg {
                        reg: Reg::new(files.c, k),
                        value: t,
                        mask: None,
                    },
                    None,
                );
            }
        }
        let target = g.insts.len() + g.rng.gen_range(1..=opts.max_block_insts.max(1)) as usize;
        g.fill(target);
        let term = terminator(&mut g, i, n);
        let term_pc = g.insts.last().map_or(0, |i| i.pc);
        blocks.push(BlockData {
            guest_pc: Some(block_pc(i)),
            guest_insts: g.guest_insts,
            insts: g.insts,
            term,
            term_pc,
        });
    }
    Function {
        name: format!("random_{seed:016x}"),
        layout,
        blocks,
    }
}

/// Ends block `i` of `n`: forward jumps, branches, barriers and indirect jumps, or a counted
/// back edge; the last block returns (or, with faults allowed, sometimes traps).
fn terminator(g: &mut BodyGen<'_>, i: u32, n: u32) -> Terminator {
    if i + 1 == n {
        if g.opts.faults && g.rng.gen_bool(0.1) {
            return Terminator::Trap(TrapKind::Explicit("random trap".into()));
        }
        return Terminator::Return;
    }
    let forward = |g: &mut BodyGen<'_>| Block(g.rng.gen_range(i + 1..n));
    match g.rng.gen_range(0..10) {
        0 | 1 => Terminator::Jump(forward(g)),
        2..=4 => {
            let cond = g.uniform_cond();
            Terminator::Branch {
                cond,
                then_to: forward(g),
                else_to: forward(g),
            }
        }
        5..=7 if i >= 1 => {
            // while c[i] != 0 { c[i] -= 1; goto back } (sometimes also gated by a random
            // condition: the counter alone bounds the trips).
            let counter = Reg::new(g.files.c, i);
            let c = g.push(
                InstKind::ReadReg(counter),
                Some(Type::uniform(ScalarType::I32)),
            );
            let one = g.konst(ScalarType::I32, 1);
            let dec = g.pure(Op::UsubSat, ScalarType::I32, &[c, one]);
            g.push(
                InstKind::WriteReg {
                    reg: counter,
                    value: dec,
                    mask: None,
                },
                None,
            );
            let zero = g.konst(ScalarType::I32, 0);
            let mut cond = g.pure(Op::Icmp(crate::IntCC::Ne), ScalarType::I1, &[c, zero]);
            if g.rng.gen_bool(0.3) {
                let extra = g.uniform_cond();
                cond = g.pure(Op::And, ScalarType::I1, &[cond, extra]);
            }
            let back = Block(g.rng.gen_range(1..=i));
            Terminator::Branch {
                cond,
                then_to: back,
                else_to: forward(g),
            }
        }
        8 if g.opts.barriers => Terminator::Barrier(forward(g)),
        9 if g.opts.indirect_jumps => {
            let cond = g.uniform_cond();
            let pc = |g: &mut BodyGen<'_>| {
                let target = if g.opts.faults && g.rng.gen_bool(0.1) {
                    block_pc(n) + 4
                } else {
                    block_pc(forward(g).0)
                };
                g.konst(ScalarType::I64, target)
            };
            let (a, b) = (pc(g), pc(g));
            Terminator::JumpIndirect(g.pure(Op::Select, ScalarType::I64, &[cond, a, b]))
        }
        _ => Terminator::Jump(forward(g)),
    }
}
