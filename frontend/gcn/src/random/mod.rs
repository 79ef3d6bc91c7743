//! Seeded random GCN programs and wave states for differential testing.
//!
//! A program is built from the instruction tables (rows picked by family, with weights), so
//! every row the tables gain is exercised without touching this module. Programs are valid
//! by construction:
//! - operands respect the encodings' legality rules (constant-bus limit of one SGPR or
//!   literal per VALU instruction on gfx6-gfx9, no literal in VOP3/VOP3P, SDWA/DPP sources in
//!   VGPRs (gfx9 SDWA may name one SGPR), aligned SGPR pairs and quads, register ranges);
//! - every program terminates: branches go forward inside their own region, and the only
//!   backward branches close loops whose counter SGPR nothing else writes;
//! - every instruction is encoded with [`crate::encode::encode`] and decoded back to an equal
//!   [`Inst`] (a mismatch is a [`GenError`]), and the program ends with `s_endpgm`.
//!
//! Registers: random operands use `s0..s[SGPR_POOL-1]`, `v0..v[VGPR_POOL-1]`, VCC, EXEC and
//! M0. The registers from [`LOOP_COUNTER_SGPR`] up are reserved: loop counters, the saved
//! EXEC of `s_and_saveexec` sandwiches, the buffer base for scalar loads, the guard mask and
//! buffer resources of the memory profile, and the per-lane address VGPRs of vector memory
//! instructions (set by [`InitState::set_buffers`]).
//!
//! # The memory profile
//!
//! [`GenConfig::memory_heavy`] makes most instructions memory instructions, of every form the
//! lifter takes: scalar and buffer-resource scalar loads, MUBUF (`offen` through a
//! range-checked resource, no address VGPR, and gfx6/7 `addr64` through an unchecked one),
//! FLAT and GLOBAL (vector and SGPR-base addressing) loads, stores and atomics of every width,
//! gfx9 SCRATCH loads and stores, and every DS row with an address. Addresses come from the per-lane patterns of
//! [`Pattern`]: consecutive, strided, uniform, scattered (misaligned too), lanes at and just
//! past the buffer's end, lanes out of range outside a guard mask, and a few addresses shared
//! by many lanes. Every in-range pattern leaves [`HEADROOM`] bytes after its highest address, so
//! an instruction offset of at most `HEADROOM - width` keeps an access inside; the generator
//! sometimes picks a larger or negative offset to step just past the end or before the start.
//! Memory instructions also run inside `s_and_saveexec` sandwiches, and inside guard
//! sandwiches that AND EXEC with the guard mask, under which the out-of-range lanes of the
//! guarded pattern are inactive and must not fault. The LDS and each lane's private segment
//! are as large as the buffer and the same offsets address them (out-of-range LDS bytes read 0
//! and drop writes; a private access out of its lane's segment faults).
//!
//! A program is a list of [`Item`]s whose branch targets are item indices, so a minimiser can
//! drop items and re-encode ([`layout`]) without breaking branches.

mod pick;
mod state;

pub use state::{edge_value, InitState, Pattern, VGPR_ROWS};

use crate::decode::decode;
use crate::encode::{encode, EncodeError};
use crate::inst::{Gen, Inst};
use crate::print::{print, print_with};
use crate::tables::{self, Family, Field};
use pick::Picker;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// SGPRs `s0..SGPR_POOL` are random operands.
pub const SGPR_POOL: u8 = 24;
/// VGPRs `v0..VGPR_POOL` are random operands.
pub const VGPR_POOL: u8 = 16;
/// Loop counters: `s[LOOP_COUNTER_SGPR + depth]`.
pub const LOOP_COUNTER_SGPR: u8 = 80;
/// Maximum loop nesting.
pub const MAX_LOOP_DEPTH: usize = 2;
/// EXEC saved by `s_and_saveexec_b64` sandwiches (a pair).
pub const SAVED_EXEC_SGPR: u8 = 84;
/// Base address of the global buffer (a pair), for scalar loads.
pub const BUFFER_SGPR: u8 = 86;
/// Per-lane global address `buffer + lane * LANE_STRIDE` (a pair), for FLAT/GLOBAL accesses.
pub const ADDR_VGPR: u8 = 40;
/// Per-lane LDS address `lane * 4`.
pub const LDS_ADDR_VGPR: u8 = 42;
/// Bytes of the global buffer each lane owns.
pub const LANE_STRIDE: u32 = 16;
/// Size of the global buffer and of the LDS the harness provides.
pub const BUFFER_BYTES: u32 = 64 * LANE_STRIDE;
/// Memory profile: the guard mask (a pair). The lanes of [`Pattern::Guarded`] outside it hold
/// out-of-range offsets.
pub const GUARD_SGPR: u8 = 88;
/// Memory profile: a MUBUF resource (four SGPRs) of the buffer, range-checked to
/// [`BUFFER_BYTES`] (stride 0).
pub const RSRC_SGPR: u8 = 92;
/// Memory profile: a MUBUF resource with base 0 and no range, for gfx6/7 `addr64` accesses
/// through the absolute address pairs.
pub const RSRC_ABS_SGPR: u8 = 96;
/// Memory profile: the 64-bit address pair of pattern `p` is `v[PAIR_VGPR + 2p]`.
pub const PAIR_VGPR: u8 = 43;
/// Memory profile: the 32-bit byte offset (into the buffer or the LDS) of pattern `p` is
/// `v[OFFSET_VGPR + p]`.
pub const OFFSET_VGPR: u8 = PAIR_VGPR + 2 * Pattern::ALL.len() as u8;
/// Bytes every in-range pattern leaves after its highest offset (see the module doc).
pub const HEADROOM: u32 = 16;

/// The instruction mix a generator draws from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Profile {
    /// Every family by its weight, memory among them when [`GenConfig::memory`] is set.
    #[default]
    Mixed,
    /// Mostly memory instructions on the address patterns of [`Pattern`] (see the module doc).
    Memory,
}

/// What a generated program may contain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Random instructions in the top-level region (loops and patterns add more).
    pub length: usize,
    /// Forward branches and bounded loops.
    pub control: bool,
    /// Scalar loads, FLAT/GLOBAL loads and stores to the buffer, LDS reads and writes.
    pub memory: bool,
    /// `s_setreg_imm32_b32` of the MODE register (denormal and IEEE bits) between regions.
    pub mode_changes: bool,
    /// The instruction mix.
    pub profile: Profile,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            length: 24,
            control: true,
            memory: true,
            mode_changes: true,
            profile: Profile::Mixed,
        }
    }
}

impl GenConfig {
    /// The memory profile (see the module doc): longer programs, mostly memory instructions.
    pub fn memory_heavy() -> GenConfig {
        GenConfig {
            length: 28,
            profile: Profile::Memory,
            ..GenConfig::default()
        }
    }
}

/// One instruction of a program. `target` is the item index a branch jumps to (the number of
/// items means "just past the last one").
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub inst: Inst,
    pub target: Option<usize>,
}

/// A laid-out program: its items, their byte offsets and the code bytes.
#[derive(Clone, Debug)]
pub struct RandomProgram {
    pub gen: Gen,
    pub items: Vec<Item>,
    /// Byte offset of every item, plus the code length at the end.
    pub offsets: Vec<usize>,
    pub code: Vec<u8>,
}

/// A generated instruction that does not encode or decode back to itself.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    #[error("cannot encode `{text}`: {err}")]
    Encode { text: String, err: EncodeError },
    #[error("`{text}` does not round-trip through the encoder: decodes as {back}")]
    RoundTrip { text: String, back: String },
    #[error("branch at item {0} cannot reach item {1}")]
    BranchRange(usize, usize),
}

/// Generates the program of `seed` for `gen`.
pub fn generate(gen: Gen, seed: u64, cfg: &GenConfig) -> Result<RandomProgram, GenError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut b = Builder {
        p: Picker::new(&mut rng, gen, cfg.memory, cfg.profile),
        cfg,
        items: Vec::new(),
    };
    b.region(0, cfg.length, true);
    let end = b.p.sopp(crate::inst::Opcode::S_ENDPGM, 0);
    b.items.push(Item {
        inst: end,
        target: None,
    });
    layout(gen, b.items)
}

/// Encodes `items` in order, resolving branch targets to displacements, and checks that
/// every instruction decodes back to itself.
pub fn layout(gen: Gen, mut items: Vec<Item>) -> Result<RandomProgram, GenError> {
    let mut offsets = Vec::with_capacity(items.len() + 1);
    let mut at = 0usize;
    for it in &items {
        offsets.push(at);
        at += encode_checked(&it.inst)?.len();
    }
    offsets.push(at);
    let mut code = Vec::with_capacity(at);
    for i in 0..items.len() {
        if let Some(t) = items[i].target {
            let t = t.min(items.len());
            let disp = (offsets[t] as i64 - (offsets[i] as i64 + 4)) / 4;
            let d = i16::try_from(disp).map_err(|_| GenError::BranchRange(i, t))?;
            items[i].inst.simm16 = Some(d as u16);
            if let Some(o) = items[i]
                .inst
                .operands
                .iter_mut()
                .find(|o| o.field == Field::Branch)
            {
                o.value = crate::inst::Operand::Imm(d as u16 as u32);
            }
        }
        let bytes = encode_checked(&items[i].inst)?;
        code.extend_from_slice(&bytes);
    }
    Ok(RandomProgram {
        gen,
        items,
        offsets,
        code,
    })
}

/// Encodes one instruction and checks `decode(encode(inst)) == inst`.
pub fn encode_checked(inst: &Inst) -> Result<Vec<u8>, GenError> {
    let bytes = encode(inst).map_err(|err| GenError::Encode {
        text: print(inst),
        err,
    })?;
    let mut want = inst.clone();
    want.len = bytes.len() as u8;
    match decode(inst.gen, &bytes, 0) {
        Ok(back) if back == want => Ok(bytes),
        Ok(back) => Err(GenError::RoundTrip {
            text: print(inst),
            back: format!("`{}` ({back:?})", print(&back)),
        }),
        Err(e) => Err(GenError::RoundTrip {
            text: print(inst),
            back: e.to_string(),
        }),
    }
}

impl RandomProgram {
    /// The program as LLVM-syntax assembly with `L<item>` labels at branch targets; it
    /// assembles (with [`crate::assemble`]) to [`RandomProgram::code`].
    pub fn text(&self) -> String {
        let n = self.items.len();
        let mut is_target = vec![false; n + 1];
        for it in &self.items {
            if let Some(t) = it.target {
                is_target[t.min(n)] = true;
            }
        }
        let mut s = String::new();
        for (i, it) in self.items.iter().enumerate() {
            if is_target[i] {
                s.push_str(&format!("L{i}:\n"));
            }
            let label = |_: i16| it.target.map(|t| format!("L{}", t.min(n)));
            s.push_str("  ");
            s.push_str(&print_with(&it.inst, &label));
            s.push('\n');
        }
        if is_target[n] {
            s.push_str(&format!("L{n}:\n"));
        }
        s
    }

    /// Index of the item at byte offset `pc`.
    pub fn item_at(&self, pc: u64) -> Option<usize> {
        self.offsets[..self.items.len()]
            .binary_search(&(pc as usize))
            .ok()
    }
}

/// Builds the item list region by region.
struct Builder<'a, 'r> {
    p: Picker<'r>,
    cfg: &'a GenConfig,
    items: Vec<Item>,
}

impl Builder<'_, '_> {
    fn push(&mut self, inst: Inst) {
        self.items.push(Item { inst, target: None });
    }

    /// Emits about `n` random instructions. Forward branches land on this region's own item
    /// boundaries (never inside a nested loop, which would skip its counter's init) and never
    /// past a MODE change (which would make the MODE at the target path-dependent).
    fn region(&mut self, depth: usize, n: usize, top: bool) {
        let mut boundaries = Vec::new();
        let mut fences = Vec::new();
        let mut branches = Vec::new();
        for _ in 0..n {
            boundaries.push(self.items.len());
            let roll: u32 = self.p.rng.gen_range(0..100);
            match roll {
                0..=4 if self.cfg.control && depth < MAX_LOOP_DEPTH => self.looped(depth),
                5..=12 if self.cfg.control => {
                    branches.push(self.items.len());
                    let br = self.p.branch();
                    self.push(br);
                }
                13 if top && self.cfg.mode_changes => {
                    fences.push(self.items.len());
                    let i = self.p.setreg_mode();
                    self.push(i);
                }
                14..=17 => self.saveexec_sandwich(),
                18..=24 if self.p.memory_profile() => self.guard_sandwich(),
                18..=21 => {
                    for i in self.p.carry_chain() {
                        self.push(i);
                    }
                }
                _ => {
                    let i = self.p.any();
                    self.push(i);
                }
            }
        }
        let end = self.items.len();
        boundaries.push(end);
        for at in branches {
            let limit = fences.iter().copied().find(|&f| f > at).unwrap_or(end);
            let choices: Vec<usize> = boundaries
                .iter()
                .copied()
                .filter(|&b| b > at && b <= limit)
                .collect();
            let t = choices[self.p.rng.gen_range(0..choices.len())];
            self.items[at].target = Some(t);
        }
    }

    /// `s_mov_b32 sC, k; body: ...; s_sub_u32 sC, sC, 1; s_cmp_lg_u32 sC, 0; s_cbranch_scc1 body`.
    fn looped(&mut self, depth: usize) {
        let counter = LOOP_COUNTER_SGPR + depth as u8;
        let k = self.p.rng.gen_range(1..=3);
        let init = self.p.loop_init(counter, k);
        self.push(init);
        let body = self.items.len();
        let n = self.p.rng.gen_range(1..=6);
        self.region(depth + 1, n, false);
        for i in self.p.loop_latch(counter) {
            self.push(i);
        }
        let back = self.p.sopp(crate::inst::Opcode::S_CBRANCH_SCC1, 0);
        self.items.push(Item {
            inst: back,
            target: Some(body),
        });
    }

    /// A VOPC compare, `s_and_saveexec_b64`, a few VALU instructions (in the memory profile
    /// often memory instructions), then EXEC restored.
    fn saveexec_sandwich(&mut self) {
        let cmp = self.p.vopc_to_vcc();
        self.push(cmp);
        let save = self.p.saveexec();
        self.push(save);
        for _ in 0..self.p.rng.gen_range(1..=3) {
            let i = self.p.sandwiched();
            self.push(i);
        }
        let restore = self.p.restore_exec();
        self.push(restore);
    }

    /// Memory profile: `s_and_saveexec_b64` with the guard mask, a few memory instructions
    /// (mostly on the guarded pattern, whose active lanes are then all in range), then EXEC
    /// restored.
    fn guard_sandwich(&mut self) {
        let save = self.p.guard_saveexec();
        self.push(save);
        for _ in 0..self.p.rng.gen_range(1..=3) {
            let i = self.p.memory_heavy(true);
            self.push(i);
        }
        let restore = self.p.restore_exec();
        self.push(restore);
    }
}

/// Rows of `family` that exist on `gen`.
fn rows_on(gen: Gen, family: Family) -> impl Iterator<Item = &'static tables::OpInfo> {
    tables::rows(family)
        .iter()
        .filter(move |r| r.opcode_in(gen).is_some())
}

#[cfg(test)]
mod tests;
