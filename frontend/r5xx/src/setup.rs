//! What `start_program` hands the lifter: the program's instruction slots and the state of
//! the command processor, memory controller and US registers it runs under. The lifter
//! specialises a program on its setup (surfaces and modes are constants in the lifted code),
//! so a setup is part of a lifted program's identity (it is `Hash` and `Eq`).

use crate::inst::Inst;
use crate::mc::Surface;

/// The conditional operation unit's test (`set_cond_test`): client value `v` op buffer value
/// `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CondTest {
    Never,
    Less,
    LessEqual,
    Equal,
    GreaterEqual,
    Greater,
    NotEqual,
    Always,
}

impl CondTest {
    /// Whether client value `v` passes the test against buffer value `b`, both f32 bits
    /// (seed 003 §2.1.3: `v op b`): IEEE comparisons without flushing denormals, so a NaN
    /// fails every test but NotEqual. The lifted code's test at the DPP is the same rule
    /// (`lift::output`); the executor runs this one for the test at the PE.
    pub fn passes(self, v: u32, b: u32) -> bool {
        let (v, b) = (f32::from_bits(v), f32::from_bits(b));
        match self {
            CondTest::Never => false,
            CondTest::Less => v < b,
            CondTest::LessEqual => v <= b,
            CondTest::Equal => v == b,
            CondTest::GreaterEqual => v >= b,
            CondTest::Greater => v > b,
            CondTest::NotEqual => v != b,
            CondTest::Always => true,
        }
    }
}

/// Where the conditional test applies (`set_cond_loc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CondLoc {
    /// At the processors: a processor's output writes happen only if its test passes
    /// (conditional output).
    Dpp,
    /// At the PE: a pair whose test fails is not run (conditional execution).
    Pe,
}

/// The conditional operation unit's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cond {
    /// The conditional buffer (`set_cond_out_fmt`), if set.
    pub buffer: Option<Surface>,
    pub test: CondTest,
    pub loc: CondLoc,
    /// `set_cond_out_mask` bit 0: write the client value to the buffer when the test passes.
    pub write: bool,
    /// `set_cond_val`: the value the PE sends.
    pub value: u32,
}

/// The US registers a CTM program's info sets (seed 003 chapter 4, `dpp_proginfo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ProgInfo {
    /// FG_DEPTH_SRC bit 0: the program exports a conditional value.
    pub exports_cond: bool,
    /// US_CONFIG bit 0: outputs are uncached (UMRT) writes.
    pub uncached_outputs: bool,
    /// US_CONFIG bit 1 (ZERO_TIMES_ANYTHING_EQUALS_ZERO): the legacy multiply in MAD and dot
    /// products.
    pub zero_times_anything: bool,
    /// US_PIXSIZE: the largest temporary used.
    pub pixsize: u32,
    /// US_FC_CTRL bit 31: full flow control (loops, calls, 32 branch levels).
    pub full_fc: bool,
    /// US_CODE_ADDR: the first slot run and the last slot (the end of the program).
    pub start: u32,
    pub end: u32,
}

/// What the `set_*` commands give a program: the memory controller's clients (inputs,
/// outputs, constants) and the conditional unit's state. The command processor holds one,
/// each `start_program` hands a copy to the lifter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bindings {
    /// Inputs 0-15 and outputs 0-3 (`set_inp_fmt`, `set_out_fmt`).
    pub inputs: [Option<Surface>; 16],
    pub outputs: [Option<Surface>; 4],
    /// `set_out_mask`: bit c = write channel c of every output.
    pub out_mask: u8,
    pub cond: Cond,
    /// Float, integer and boolean constants (`set_const{f,i,b}_fmt`).
    pub constf: Option<Surface>,
    pub consti: Option<Surface>,
    pub constb: Option<Surface>,
}

impl Default for Bindings {
    /// The state before any command (the seed gives none; the choice is documented in
    /// [`crate::stream::processor`]): nothing bound, every output channel written, the
    /// conditional test `always` at the processors, no conditional write, value 0.
    fn default() -> Self {
        Bindings {
            inputs: [None; 16],
            outputs: [None; 4],
            out_mask: 0xf,
            cond: Cond {
                buffer: None,
                test: CondTest::Always,
                loc: CondLoc::Dpp,
                write: false,
                value: 0,
            },
            constf: None,
            consti: None,
            constb: None,
        }
    }
}

/// A program and the state it runs under.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The instruction slots, from slot 0 of the instruction memory on.
    pub program: Vec<Inst>,
    pub info: ProgInfo,
    pub bindings: Bindings,
}
