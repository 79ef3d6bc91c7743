//! The lifter: IL compute programs (`il_cs`) to the IR. [`lift`] turns a [`Program`] (decoded
//! from tokens or parsed from text) into one [`Function`] over the layout of [`state`].
//!
//! - `scan`: the declarations (literals, constant buffers, indexed temp arrays, UAV ids) and
//!   the temps a program uses, read before lifting.
//! - `regs`: the register model: source components with their swizzles and modifiers,
//!   destination components with their write masks and modifiers, literals, temps, indexed
//!   temps, constant buffers and the thread-id registers.
//! - `alu`: the ALU instructions, each with its rule from seed 001 Chapter 7.
//! - `flow`: structured control flow as mask arithmetic.
//! - `mem`: raw UAV and LDS loads and stores, fences.
//! - [`state`]: the layout and the launch contract.
//!
//! # Design
//! - **Main only, for now**: the lift runs from the first instruction to `endmain` (or `end`);
//!   the functions after `endmain` are not lifted, and a `call` is refused.
//! - **Blocks**: block 0 is the first instruction. Control flow is lifted to masks (`flow`), so
//!   blocks are cut only where the IR needs a uniform branch: a loop's head and exit, the
//!   skip of an `if` or `else` part that no lane runs, and a `fence_threads` barrier. The
//!   function then goes through [`merge_blocks`].
//! - **Guest pcs** are byte offsets of the instructions in the program's token stream (the
//!   macro blocks, the language and version tokens, then the code), as [`crate::encode`] writes
//!   it; a refusal names that offset and prints the instruction in IL text. Declarations,
//!   comments and `prec` prefixes lift to nothing and count no guest instruction.
//! - **Values**: every register component is an `i32` of raw bits; float instructions bitcast
//!   to `f32` and back. Single-precision ops flush denormals on input and output
//!   ([`F32_MODE`]): "denorms are flushed before all float instructions" (L3055), "flushed to
//!   zeros on input and output" (MAD, L8418).
//!
//! # Refused (a [`LiftError`] naming the instruction)
//! Programs of other shader types, and programs of more than 4096 temps (`scan`)
//! ([`LiftErrorKind::Unsupported`]). Instructions not lifted yet, each with its `IL_OP_*`
//! name: calls and functions, macros (`mcall`), DX9 `loop`, doubles, 64-bit integers, f16
//! conversions, the rest of the float section (transcendentals, dot products, `clamp`,
//! `cmp`, `set`, `sgn`, `mod`, ...), the multimedia ops, the atomics, typed and structured
//! UAVs and LDS, `g[]`, immediate constant buffers, the byte/short memory forms, GDS, and the
//! instructions no compute kernel uses (texture sampling, vertex and pixel I/O). Invalid programs
//! ([`LiftErrorKind::Invalid`]): unbalanced blocks, a register used without its declaration,
//! an absolute index past a declared size, operand counts the opcode does not have, modifiers
//! Table 2.10 does not allow for the instruction's type.

mod alu;
mod flow;
mod mem;
mod regs;
mod scan;
pub mod state;

use crate::inst::{Inst, Program};
use crate::table::{Compute, Row};
use crate::token::Version;
use scan::Decls;
use state::IlLayout;
use std::collections::HashMap;
use wavejit_ir::{
    merge_blocks, Block, FloatMode, Function, FunctionBuilder, ScalarType, Terminator, Value,
};
pub use wavejit_isa::{LiftError, LiftErrorKind};

pub use state::WAVE_SIZE;

/// The float mode of single-precision instructions (see the module doc).
pub const F32_MODE: FloatMode = FloatMode::FLUSH;

/// How an instruction leaves the lift.
enum Flow {
    Next,
    /// `endmain` or `end`: main is over.
    End,
}

/// Lifting state: the builder, the program and what the scans found, the instruction being
/// lifted and the open control-flow blocks.
pub(crate) struct Lifter<'a> {
    b: FunctionBuilder,
    l: &'a IlLayout,
    program: &'a Program,
    decls: &'a Decls,
    /// Byte offset of each instruction of `program.code`.
    pcs: &'a [u64],
    /// Case values of each `switch`, by instruction index.
    cases: &'a HashMap<usize, Vec<u32>>,
    /// The instruction being lifted (an index into `program.code`).
    i: usize,
    /// The open if/loop/switch blocks, outermost first.
    frames: Vec<flow::Frame>,
    /// The exec mask as a lane mask, while the current block has it.
    exec_mask: Option<Value>,
    /// Register components the current instruction has read: (source, component).
    fetched: HashMap<(usize, u32), Value>,
}

/// Lifts `program` for waves of [`WAVE_SIZE`] lanes (see the module doc).
pub fn lift(program: &Program, name: &str) -> Result<Function, LiftError> {
    lift_wave(program, name, WAVE_SIZE)
}

/// Lifts `program` for waves of `wave_size` lanes (a multiple of 4, at most 64).
pub fn lift_wave(program: &Program, name: &str, wave_size: u32) -> Result<Function, LiftError> {
    check_wave(wave_size)?;
    if program.version.shader != Version::COMPUTE {
        let kind = crate::table::enums::SHADER
            .get(usize::from(program.version.shader))
            .unwrap_or(&"?");
        return Err(LiftError::unsupported(
            0,
            "",
            format!("an il_{kind} program; only compute programs (il_cs) lift"),
        )
        .at("program"));
    }
    let pcs = offsets(program)?;
    let decls = scan::declarations(program, &pcs)?;
    let shape = flow::structure(program, decls.main_end, &pcs)?;
    let layout = layout_of(&decls, shape.depth, wave_size);
    let mut lifter = Lifter {
        b: FunctionBuilder::new(name, layout.layout.clone()),
        l: &layout,
        program,
        decls: &decls,
        pcs: &pcs,
        cases: &shape.cases,
        i: 0,
        frames: Vec::new(),
        exec_mask: None,
        fetched: HashMap::new(),
    };
    let entry = lifter.b.create_block();
    lifter.enter(entry);
    for (i, &pc) in pcs.iter().enumerate().take(decls.main_end + 1) {
        lifter.i = i;
        lifter.fetched.clear();
        if lifter.b.current_block().is_none() {
            // Code after a `ret` that ended main: nothing reaches it.
            let b = lifter.b.create_block();
            lifter.enter(b);
        }
        lifter.b.set_inst_pc(pc as u32);
        match lifter.lift_inst()? {
            Flow::Next => {}
            Flow::End => break,
        }
    }
    let mut f = lifter.b.finish();
    merge_blocks(&mut f);
    Ok(f)
}

/// The layout [`lift`] gives `program` (for waves of `wave_size` lanes): the launcher's map of
/// its state.
pub fn layout(program: &Program, wave_size: u32) -> Result<IlLayout, LiftError> {
    check_wave(wave_size)?;
    let pcs = offsets(program)?;
    let decls = scan::declarations(program, &pcs)?;
    let shape = flow::structure(program, decls.main_end, &pcs)?;
    Ok(layout_of(&decls, shape.depth, wave_size))
}

/// Refuses a wave size the IR cannot have.
fn check_wave(wave_size: u32) -> Result<(), LiftError> {
    if wave_size.is_multiple_of(4) && (4..=64).contains(&wave_size) {
        Ok(())
    } else {
        Err(LiftError::invalid(
            0,
            "",
            format!("a wave of {wave_size} lanes (a multiple of 4, at most 64)"),
        )
        .at("program"))
    }
}

fn layout_of(decls: &Decls, depth: u32, wave_size: u32) -> IlLayout {
    IlLayout::new(decls.temps, &decls.arrays, depth, wave_size)
}

/// The byte offset of every instruction of `program.code` in its token stream: the guest pc
/// of each (see the module doc).
pub fn offsets(program: &Program) -> Result<Vec<u64>, LiftError> {
    let mut words = Vec::new();
    for m in &program.macros {
        crate::encode::encode_inst(m, &mut words)
            .map_err(|e| LiftError::invalid(0, "", e.to_string()).at("macro"))?;
    }
    let mut at = words.len() as u64 + 2;
    let mut pcs = Vec::with_capacity(program.code.len());
    for inst in &program.code {
        pcs.push(4 * at);
        words.clear();
        crate::encode::encode_inst(inst, &mut words).map_err(|e| {
            LiftError::invalid(4 * at, crate::print::print_inst(inst), e.to_string())
        })?;
        at += words.len() as u64;
    }
    Ok(pcs)
}

/// A refusal of kind `kind` of `inst` at byte offset `pc`.
fn refusal(kind: LiftErrorKind, pc: u64, inst: &Inst, why: impl Into<String>) -> LiftError {
    LiftError::new(kind, pc, crate::print::print_inst(inst), why)
}

impl<'a> Lifter<'a> {
    fn inst(&self) -> &'a Inst {
        &self.program.code[self.i]
    }

    fn row(&self) -> &'static Row {
        // `offsets` encoded every instruction, so each has a row.
        self.inst()
            .row()
            .expect("an encodable instruction has a row")
    }

    fn pc(&self) -> u64 {
        self.pcs[self.i]
    }

    fn invalid(&self, why: impl Into<String>) -> LiftError {
        refusal(LiftErrorKind::Invalid, self.pc(), self.inst(), why)
    }

    fn unsupported(&self, why: impl Into<String>) -> LiftError {
        refusal(LiftErrorKind::Unsupported, self.pc(), self.inst(), why)
    }

    /// Control field `name` of the instruction (0 when its row has none).
    fn field(&self, name: &str) -> u16 {
        self.row()
            .field(name)
            .map_or(0, |f| f.get(self.inst().control))
    }

    /// Counts the instruction as a guest instruction of the current block.
    fn count(&mut self) {
        self.b.begin_guest_inst(self.pc() as u32);
    }

    /// Makes `b` the current block.
    fn enter(&mut self, b: Block) {
        self.b.switch_to(b);
        self.exec_mask = None;
    }

    /// Ends the current block with a jump to `to` and continues there.
    fn jump_to(&mut self, to: Block) {
        self.b.terminate(Terminator::Jump(to));
        self.enter(to);
    }

    /// The exec mask as a uniform `i64`.
    fn exec_bits(&mut self) -> Value {
        let r = self.l.exec();
        self.b.use_reg(r, ScalarType::I64)
    }

    /// The exec mask as a lane mask.
    fn exec_mask(&mut self) -> Value {
        if let Some(m) = self.exec_mask {
            return m;
        }
        let bits = self.exec_bits();
        let m = self.b.mask_from_bits(bits);
        self.exec_mask = Some(m);
        m
    }

    fn set_exec(&mut self, bits: Value) {
        let r = self.l.exec();
        self.b.def_reg(r, bits, None);
        self.exec_mask = None;
    }

    fn lift_inst(&mut self) -> Result<Flow, LiftError> {
        let m = self.row().mnemonic;
        if is_inert(m) {
            return Ok(Flow::Next);
        }
        if let Some(flow) = self.lift_flow(m)? {
            return Ok(flow);
        }
        self.count();
        if self.lift_alu(m)? || self.lift_mem(m)? {
            return Ok(Flow::Next);
        }
        Err(self.refused())
    }

    /// Why the instruction does not lift.
    fn refused(&self) -> LiftError {
        let row = self.row();
        let why = match row.compute {
            Compute::No => format!(
                "{}: a graphics instruction; compute programs do not use it",
                row.name
            ),
            Compute::Legacy => format!(
                "{}: an R7xx compute feature (owner-computes LDS, shared registers), \
                 not lifted",
                row.name
            ),
            Compute::Yes | Compute::Partial => format!("{} is not lifted yet", row.name),
        };
        self.unsupported(why)
    }
}

/// Instructions that lift to nothing: the declarations the scans read (or the launch's
/// business: group sizes, flags, LDS sizes), comments, no-ops, and `prec` prefixes (the IR's
/// operations are exact already, so "precise" changes nothing).
fn is_inert(mnemonic: &str) -> bool {
    matches!(
        mnemonic,
        "dcl_cb"
            | "dcl_literal"
            | "dcl_indexed_temp_array"
            | "dcl_num_thread_per_group"
            | "dcl_max_thread_per_group"
            | "dcl_total_num_thread_group"
            | "dcl_global_flags"
            | "dcl_raw_uav"
            | "dcl_typeless_uav"
            | "dcl_arena_uav"
            | "dcl_lds"
            | "comment"
            | "nop"
            | "prec"
    )
}
