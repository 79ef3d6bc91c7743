//! The lifter: IL compute programs (`il_cs`), and pixel-shader programs (`il_ps`) run over a
//! domain as CAL ran them (`pixel`), to the IR. [`lift`] turns a [`Program`] (decoded from
//! tokens or parsed from text) into one [`Function`] over the layout of [`state`].
//!
//! - `scan`: the declarations (literals, constant buffers, the immediate constant buffer,
//!   indexed temp arrays, UAV ids, `def`/`defb` constants) and the temps a program uses, read
//!   before lifting.
//! - `regs`: the register model: source components with their swizzles and modifiers,
//!   destination components with their write masks and modifiers, literals, temps, indexed
//!   temps and the thread-id registers.
//! - `buffers`: constant buffers, the immediate constant buffer, `g[]` and the constants a
//!   program defines.
//! - `alu`: the ALU instructions, each with its rule from seed 001 Chapter 7.
//! - `flow`: structured control flow as mask arithmetic, whileloop and DX9 loop.
//! - `call`: functions and calls, the return stack, recursion.
//! - `macros`: macro expansion.
//! - `mem`: UAVs, SRVs, the LDS and the GDS: loads, stores, atomics; fences.
//! - `pixel`: what a pixel shader may use (`vWinCoord0`, its declaration) and what it may not.
//! - [`state`]: the layout and the launch contract.
//!
//! # Design
//! - **Plan, then lift**: before lifting, [`Plan`] finds each instruction's offset, the
//!   declarations, the macros (`macros`) and the functions (`call`), checks the structure of
//!   every body (main, each function, each macro) on its own (`structure`), numbers the
//!   macro expansions and sizes the state. The lift then runs main from the first instruction
//!   to `endmain` (or `end`), then every function, each once; a macro call expands its body in
//!   place.
//! - **Blocks**: block 0 is the first instruction. Control flow is lifted to masks (`flow`), so
//!   blocks are cut only where the IR needs a uniform branch: a loop's head and exit, the
//!   skip of an `if` or `else` part that no lane runs, a call, its return site and a
//!   function's first instruction, and a `fence_threads` barrier. The function then goes
//!   through [`merge_blocks`].
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
//! Programs of other shader types than il_cs and il_ps (and, in il_ps, what `pixel` lists),
//! programs of more than 4096 temps (`scan`; macro
//! expansions' temps included) or more than 4096 macro expansions
//! ([`LiftErrorKind::Unsupported`]). Instructions not lifted yet, each with its `IL_OP_*`
//! name: 5 post-v2.4 double ops (`double`); the float section's `noise`, `faceforward`
//! and the rows without an entry (`clg`, `precomp`, `trc`) (`alu`); matrix rows past an
//! operand that is not an unindexed `r#` (or an `l#` source) (`alu`); append buffers (`append_buf_alloc`/`consume`); the global
//! wave sync semaphores (`dcl_gws_thread_count`, `dcl_semaphore`, `semaphore_*`); the virtual
//! functions (`fcall`, function tables); the instructions no compute kernel uses (texture
//! sampling, vertex and pixel I/O). Of the memory forms (`mem`): `dcl_typed_uav` (no entry),
//! typeless UAVs of a stride other than 4, typed UAVs of the multisampled, cube and `plusw`
//! dimensions, indexed SRV ids (`_ext`), an arena store's address in anything but a temp, and
//! the R7xx owner-computes LDS. Also unsupported, each with its reason: two-dimensional
//! register indices other than `cb[b][n]`; `mova` and `a0` (the seed has no entry for `mova`,
//! and `a0` is read only through IL_Rel_Addr tokens, whose layout it does not give, so the
//! decoder refuses legacy relative addressing); registers a compute launch does not set (`c#`,
//! `i#`, `b#` without a `def`/`defb`, inputs, outputs, shared registers); a return or a
//! declaration other than `dcl_literal` inside a macro. Invalid programs
//! ([`LiftErrorKind::Invalid`]): unbalanced blocks in any body, misplaced `func`/`endfunc`, a
//! call to an undefined function or macro, a macro that calls itself, a register used without
//! its declaration, an absolute index past a declared size, operand counts the opcode does
//! not have, modifiers Table 2.10 does not allow for the instruction's type.

mod alu;
mod buffers;
mod call;
mod double;
mod flow;
mod int64;
mod macros;
mod mem;
mod pixel;
mod regs;
mod scan;
pub mod state;
mod structure;

use crate::inst::{Inst, Program};
use crate::table::{Compute, Row};
use crate::token::Version;
use scan::Decls;
use state::{Extra, IlLayout};
use std::collections::HashMap;
use std::ops::Range;
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
    /// `endmain`, `end` or `endfunc`: the body is over.
    End,
}

/// What the lift knows about a program before lifting it: where each instruction is, the
/// declarations, the macros and functions and how deep their blocks nest.
pub(crate) struct Plan {
    /// Byte offset of each instruction of `program.code`, and of `program.macros`.
    pcs: Vec<u64>,
    macro_pcs: Vec<u64>,
    decls: Decls,
    macros: macros::Macros,
    funcs: call::Funcs,
    expansions: macros::Expansions,
    /// Each switch's case values, by the switch's pc.
    cases: HashMap<u64, Vec<u32>>,
    /// Temps, macro expansions' included.
    temps: u32,
    /// Nesting levels of the `cf` file.
    depth: u32,
    extra: Extra,
    /// A pixel shader's declarations (`None` for a compute program).
    pixel: Option<pixel::Pixel>,
}

impl Plan {
    fn new(program: &Program) -> Result<Plan, LiftError> {
        let (pcs, macro_pcs) = offsets(program)?;
        let decls = scan::declarations(program, &pcs)?;
        let pixel = pixel::scan(program, &pcs, &macro_pcs)?;
        let macros = macros::Macros::new(program, &macro_pcs)?;
        let mut cases = macros.cases().clone();
        let funcs = call::Funcs::new(program, &pcs, decls.main_end, &macros, &mut cases)?;
        let expansions = macros.expand(program, &pcs, &macro_pcs, decls.temps)?;
        let temps = decls.temps.saturating_add(expansions.temps);
        scan::check_temps(&decls, u64::from(temps))?;
        let extra = Extra {
            calls: funcs.any_calls(),
            saved_levels: funcs.saved_levels(),
            icb: decls.icb.as_ref().map_or(0, |v| v.len() as u32),
        };
        Ok(Plan {
            depth: funcs.depth(),
            pcs,
            macro_pcs,
            decls,
            macros,
            funcs,
            expansions,
            cases,
            temps,
            extra,
            pixel,
        })
    }

    fn layout(&self, wave_size: u32) -> IlLayout {
        IlLayout::new(
            self.temps,
            &self.decls.arrays,
            self.depth,
            self.extra,
            wave_size,
        )
        .with_bindings(self.decls.res.bindings())
    }
}

/// Lifting state: the builder, the program and its plan, the body and instruction being
/// lifted, and the open control-flow blocks.
pub(crate) struct Lifter<'a> {
    b: FunctionBuilder,
    l: &'a IlLayout,
    program: &'a Program,
    plan: &'a Plan,
    decls: &'a Decls,
    /// The instructions of the body being lifted (`program.code`, or `program.macros` in a
    /// macro expansion) and their byte offsets.
    code: &'a [Inst],
    pcs: &'a [u64],
    /// The instruction being lifted (an index into `code`).
    i: usize,
    /// The function being lifted (`None` in main).
    func: Option<u32>,
    /// The nesting level of the body's outermost blocks (see `call`).
    base: u32,
    /// The open if/loop/switch blocks of the function being lifted, outermost first.
    frames: Vec<flow::Frame>,
    /// The macro expansion being lifted, if any.
    scope: Option<macros::Scope>,
    /// Each function's first block, by label.
    entries: HashMap<u32, Block>,
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
    Ok(lift_laid_out(program, name, wave_size)?.0)
}

/// [`lift_wave`] and the function's [`layout`], from one scan of the program.
pub fn lift_laid_out(
    program: &Program,
    name: &str,
    wave_size: u32,
) -> Result<(Function, IlLayout), LiftError> {
    check_wave(wave_size)?;
    check_compute(program)?;
    let plan = Plan::new(program)?;
    let layout = plan.layout(wave_size);
    let mut lifter = Lifter {
        b: FunctionBuilder::new(name, layout.layout.clone()),
        l: &layout,
        program,
        plan: &plan,
        decls: &plan.decls,
        code: &program.code,
        pcs: &plan.pcs,
        i: 0,
        func: None,
        base: 0,
        frames: Vec::new(),
        scope: None,
        entries: HashMap::new(),
        exec_mask: None,
        fetched: HashMap::new(),
    };
    let entry = lifter.b.create_block();
    lifter.enter(entry);
    lifter.start();
    lifter.body(0..plan.decls.main_end + 1)?;
    lifter.functions()?;
    let mut f = lifter.b.finish();
    merge_blocks(&mut f);
    Ok((f, layout))
}

/// The layout [`lift`] gives `program` (for waves of `wave_size` lanes): the launcher's map of
/// its state.
pub fn layout(program: &Program, wave_size: u32) -> Result<IlLayout, LiftError> {
    check_wave(wave_size)?;
    check_compute(program)?;
    Ok(Plan::new(program)?.layout(wave_size))
}

/// Refuses programs of other shader types than compute (`il_cs`) and pixel (`il_ps`, run over
/// a domain: `pixel`).
fn check_compute(program: &Program) -> Result<(), LiftError> {
    if matches!(program.version.shader, Version::COMPUTE | Version::PIXEL) {
        return Ok(());
    }
    let kind = crate::table::enums::SHADER
        .get(usize::from(program.version.shader))
        .unwrap_or(&"?");
    Err(LiftError::unsupported(
        0,
        "",
        format!("an il_{kind} program; only compute (il_cs) and pixel (il_ps) programs lift"),
    )
    .at("program"))
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

/// The byte offset of every instruction of `program.code` and of `program.macros` in its
/// token stream: the guest pc of each (see the module doc).
pub fn offsets(program: &Program) -> Result<(Vec<u64>, Vec<u64>), LiftError> {
    let mut words = Vec::new();
    let mut at = 0u64;
    let mut place = |inst: &Inst, at: &mut u64| {
        words.clear();
        let pc = 4 * *at;
        crate::encode::encode_inst(inst, &mut words)
            .map_err(|e| LiftError::invalid(pc, crate::print::print_inst(inst), e.to_string()))?;
        *at += words.len() as u64;
        Ok::<u64, LiftError>(pc)
    };
    let macro_pcs = program
        .macros
        .iter()
        .map(|m| place(m, &mut at))
        .collect::<Result<Vec<_>, _>>()?;
    // The language and version tokens.
    at += 2;
    let pcs = program
        .code
        .iter()
        .map(|inst| place(inst, &mut at))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((pcs, macro_pcs))
}

/// A refusal of kind `kind` of `inst` at byte offset `pc`.
fn refusal(kind: LiftErrorKind, pc: u64, inst: &Inst, why: impl Into<String>) -> LiftError {
    LiftError::new(kind, pc, crate::print::print_inst(inst), why)
}

impl<'a> Lifter<'a> {
    fn inst(&self) -> &'a Inst {
        &self.code[self.i]
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

    /// Lifts the instructions `range` of the current body, until one ends it.
    fn body(&mut self, range: Range<usize>) -> Result<(), LiftError> {
        for i in range {
            self.i = i;
            self.fetched.clear();
            if self.b.current_block().is_none() {
                // Code after a return that ended the body: nothing reaches it.
                let b = self.b.create_block();
                self.enter(b);
            }
            self.b.set_inst_pc(self.pc() as u32);
            if let Flow::End = self.lift_inst()? {
                break;
            }
        }
        Ok(())
    }

    /// What main's first block sets before the program's first instruction: the call depth
    /// and the immediate constant buffer (`state`'s launch contract).
    fn start(&mut self) {
        if self.plan.extra.calls {
            let zero = self.b.i32(0);
            let r = self.l.call_cell(state::calls::DEPTH);
            self.b.def_reg(r, zero, None);
        }
        for (n, &w) in self.decls.icb.iter().flatten().enumerate() {
            let v = self.b.i32(w);
            self.b
                .def_reg(wavejit_ir::Reg::new(self.l.icb, n as u32), v, None);
        }
    }

    fn lift_inst(&mut self) -> Result<Flow, LiftError> {
        let m = self.row().mnemonic;
        if is_inert(m) || self.is_pixel_declaration(m) {
            return Ok(Flow::Next);
        }
        if let Some(flow) = self.lift_flow(m)? {
            return Ok(flow);
        }
        self.count();
        if self.lift_alu(m)? || self.lift_mem(m)? || self.lift_double(m)? || self.lift_int64(m)? {
            return Ok(Flow::Next);
        }
        Err(self.refused())
    }

    /// Why the instruction does not lift.
    fn refused(&self) -> LiftError {
        let row = self.row();
        if row.mnemonic == "mova" {
            return self.unsupported(
                "IL_OP_MOVA: no entry in the seed, and its a0 is read only through \
                 IL_Rel_Addr tokens, whose layout the seed does not give (L503)",
            );
        }
        let why = if row.compute != Compute::No
            && (row.category == "io_texture_graphics" || row.mnemonic == "dcl_resource")
        {
            format!(
                "{}: texture resources and sampling (OpenCL images) are not modelled",
                row.name
            )
        } else if row.category == "sync_gws_semaphore" {
            format!(
                "{}: global wave sync semaphores are not modelled (work-groups run \
                 independently, with nothing that waits across them)",
                row.name
            )
        } else if row.mnemonic.starts_with("append_buf") {
            format!(
                "{}: append buffers (a UAV's hidden counter) are not modelled",
                row.name
            )
        } else if row.category.contains("post-v2.4") {
            format!(
                "{}: a post-v2.4 instruction with no entry in the seed, not lifted",
                row.name
            )
        } else {
            match row.compute {
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
            }
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
            | "def"
            | "defb"
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
            | "dcl_struct_lds"
            | "dcl_uav"
            | "dcl_struct_uav"
            | "dcl_raw_srv"
            | "dcl_struct_srv"
            | "dcl_gds"
            | "dcl_struct_gds"
            | "comment"
            | "nop"
            | "prec"
    )
}
