//! R5xx programs in `wavejit wave`: the register names of a state, and the memory-controller
//! state a lone wave runs under (no command stream sets one).
//!
//! # Registers
//! Lane registers: the temporaries `r0.x`..`r127.w` (channels x, y, z, w = R, G, B, A; all
//! 128: a lone wave's program info says US_PIXSIZE 127, so a state may name any of them), the output registers `out0.x`..`out3.w` and
//! `outw` (W, the conditional value), the predicate bits `p.x`..`p.w`, the ALU result
//! `alu_result` and the branch counter `bcnt`; uniform: the loop register `aL`
//! ([`wavejit_r5xx::lift::R5xxLayout::names`]). The exec mask is the processors that flow
//! control lets write (`ACTIVE`); the state's exec makes those lanes active, alive (running)
//! and covered (in the domain), every other lane idle. The tile is at (0, 0): lane l is index
//! pair (l % 16, l / 16), which only derivatives and output addresses see; r0 is what the
//! state says (no launch ABI: the state is the launch).
//!
//! # Memory ([`lone_setup`])
//! GPU address a is guest address a: the state's `memory` ranges are GPU memory. The clients
//! are bound at fixed places, all linear FLOAT32_4 (16 bytes an element):
//! - input k (0-15): base `0x100000 + k * 0x10000`, pitch 256 (element (x, y) at base +
//!   16 (256 y + x));
//! - float constants: base [`CONSTF_BASE`], constant c at `0x10000 + 16 c`;
//!   integer constants: base [`CONSTI_BASE`] (UINT8_4: constant c is the dword at
//!   `0x11000 + 4 c`, bytes R, G, B = count, initial aL, step); boolean constants: base
//!   [`CONSTB_BASE`] (FLOAT32_1: constant c is true when the dword at `0x11800 + 4 c` is not 0);
//! - no outputs and no conditional buffer: an OUTPUT slot's writes stay in the output
//!   registers `out0.x`.., which the final state shows, and reach no memory; the conditional
//!   test is ALWAYS at the DPP with no write.
//!
//! A read of memory the state does not give is a guest fault, which the output's `fault`
//! reports. The same setup is what `disasm --ir` lifts under. The state's `constants` key
//! names nothing for R5xx: constants are memory at the addresses above.

use crate::frontend::{RegRef, RegisterNames};
use wavejit_ir::{FileKind, Reg};
use wavejit_r5xx::inst::Inst;
use wavejit_r5xx::lift::R5xxLayout;
use wavejit_r5xx::mc::{DataFormat, Surface, Tiling};
use wavejit_r5xx::setup::{Bindings, ProgInfo, Setup};
use wavejit_runtime::WaveState;

/// GPU address of input 0 in a lone wave; input k is [`INPUT_STRIDE`] bytes further on.
pub const INPUT_BASE: u32 = 0x10_0000;
pub const INPUT_STRIDE: u32 = 0x1_0000;
/// Elements per row of a lone wave's inputs.
pub const INPUT_PITCH: u32 = 256;
pub const CONSTF_BASE: u32 = 0x1_0000;
pub const CONSTI_BASE: u32 = 0x1_1000;
pub const CONSTB_BASE: u32 = 0x1_1800;

fn linear(base: u32, pitch: u32, format: DataFormat, height: u32) -> Surface {
    Surface {
        base,
        pitch,
        tiling: Tiling::Linear,
        format,
        height,
    }
}

/// The setup of a lone wave (module doc) for `program` under `info`.
pub fn lone_setup(program: Vec<Inst>, info: ProgInfo) -> Setup {
    let info = ProgInfo {
        pixsize: 127,
        ..info
    };
    let inputs = std::array::from_fn(|k| {
        Some(linear(
            INPUT_BASE + k as u32 * INPUT_STRIDE,
            INPUT_PITCH,
            DataFormat::Float32x4,
            16,
        ))
    });
    Setup {
        program,
        info,
        bindings: Bindings {
            inputs,
            constf: Some(linear(CONSTF_BASE, 256, DataFormat::Float32x4, 1)),
            consti: Some(linear(CONSTI_BASE, 32, DataFormat::Uint8x4, 1)),
            constb: Some(linear(CONSTB_BASE, 32, DataFormat::Float32x1, 1)),
            ..Bindings::default()
        },
    }
}

/// The register names of a lifted program's layout.
pub struct R5xxNames {
    layout: R5xxLayout,
}

impl R5xxNames {
    pub fn new(layout: R5xxLayout) -> R5xxNames {
        R5xxNames { layout }
    }
}

fn reg_ref(reg: Reg, kind: FileKind) -> RegRef {
    match kind {
        FileKind::Uniform => RegRef::Uniform(reg),
        _ => RegRef::Lane(reg),
    }
}

impl RegisterNames for R5xxNames {
    fn lookup(&self, name: &str) -> Option<RegRef> {
        self.layout.lookup(name).map(|(r, k)| reg_ref(r, k))
    }

    fn all(&self) -> Vec<(String, RegRef)> {
        self.layout
            .names()
            .into_iter()
            .map(|(n, r, k)| (n, reg_ref(r, k)))
            .collect()
    }

    fn exec(&self, state: &WaveState) -> u64 {
        self.layout.exec(|r| state.uniform(r))
    }

    fn set_exec(&self, state: &mut WaveState, mask: u64) {
        for (reg, v) in self.layout.lone_wave(mask) {
            state.set_uniform(reg, v);
        }
    }

    /// GPU address 0 is guest address 0, wherever the state's ranges are.
    fn bind_memory(&self, state: &mut WaveState, _base: u64) {
        let r = self.layout.mem_base();
        state.set_uniform(r, 0);
        state.set_uniform(r.offset(1), 0);
    }
}
