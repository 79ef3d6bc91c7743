//! Seed 003 table 3 (lines 237-280): the 27 CTM commands, their opcode dwords, whether they
//! are pipelined, and their parameters (names from the per-command sections, lines 281-656).
//!
//! Every opcode has the form `0xC0nnXX00`: bits 31:30 = 3, bits 29:16 = nn, bits 15:8 = XX
//! (a command id), bits 7:0 = 0; for 25 commands nn = parameters - 1, the count field of a
//! PM4 type-3 header (inferred, `notes/ctm_map.md`). `init_perf_counters` (0xC0010200) and
//! `read_perf_counters` (0xC0010500) have nn = 1, though the table, §2.1.2 ("takes one
//! parameter") and both per-command sections list one parameter. The seed's prose says one
//! three times and the count field once, so one parameter is the command's; the opcode values
//! are kept verbatim, and a second dword the header's count implies is accepted as a reserved
//! parameter where it can be told apart (see `binary`), so that streams written either way
//! parse.

/// A CTM command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    InitPerfCounters,
    StartPerfCounters,
    StopPerfCounters,
    ReadPerfCounters,
    SetCondVal,
    SetDomain,
    StartProgram,
    WaitForIdle,
    SetInstFmt,
    SetInpFmt,
    SetOutFmt,
    SetCondOutFmt,
    SetConstfFmt,
    SetConstiFmt,
    SetConstbFmt,
    InvInstCache,
    InvConstfCache,
    InvConstiCache,
    InvConstbCache,
    InvCondOutCache,
    InvInpCache,
    FlushOutCache,
    FlushCondOutCache,
    SetOutMask,
    SetCondOutMask,
    SetCondTest,
    SetCondLoc,
}

/// One parameter dword: its name in the seed, and whether text prints it in hex (addresses,
/// format words, raw values) or decimal (indices, coordinates, heights, masks, codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub hex: bool,
}

/// One row of table 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo {
    pub op: Op,
    pub name: &'static str,
    pub opcode: u32,
    pub pipelined: bool,
    pub params: &'static [Param],
}

impl OpInfo {
    /// The parameter count the opcode's count field (bits 29:16, plus one) implies.
    pub fn header_params(&self) -> usize {
        header_count(self.opcode)
    }

    /// The command id, opcode bits 15:8.
    pub fn id(&self) -> u32 {
        self.opcode >> 8 & 0xff
    }
}

/// The parameter count of a header dword's count field.
pub fn header_count(dword: u32) -> usize {
    ((dword >> 16 & 0x3fff) + 1) as usize
}

/// Whether a dword has the form of a command header, `0xC0nnXX00`-like: bits 31:30 = 3 and
/// bits 7:0 = 0.
pub fn looks_like_header(dword: u32) -> bool {
    dword >> 30 == 3 && dword & 0xff == 0
}

const fn dec(name: &'static str) -> Param {
    Param { name, hex: false }
}

const fn hex(name: &'static str) -> Param {
    Param { name, hex: true }
}

const RESERVED: &[Param] = &[hex("reserved")];
const BASE_FORMAT: &[Param] = &[hex("base address"), hex("format")];

const fn row(
    op: Op,
    name: &'static str,
    opcode: u32,
    pipelined: bool,
    params: &'static [Param],
) -> OpInfo {
    OpInfo {
        op,
        name,
        opcode,
        pipelined,
        params,
    }
}

/// Table 3, in the seed's order.
pub const OPS: [OpInfo; 27] = [
    row(
        Op::InitPerfCounters,
        "init_perf_counters",
        0xC001_0200,
        true,
        &[hex("flags")],
    ),
    row(
        Op::StartPerfCounters,
        "start_perf_counters",
        0xC000_0300,
        true,
        RESERVED,
    ),
    row(
        Op::StopPerfCounters,
        "stop_perf_counters",
        0xC000_0400,
        true,
        RESERVED,
    ),
    row(
        Op::ReadPerfCounters,
        "read_perf_counters",
        0xC001_0500,
        false,
        &[hex("GPU address")],
    ),
    row(
        Op::SetCondVal,
        "set_cond_val",
        0xC000_0600,
        true,
        &[hex("value")],
    ),
    row(
        Op::SetDomain,
        "set_domain",
        0xC003_0700,
        true,
        &[dec("i0"), dec("j0"), dec("i1"), dec("j1")],
    ),
    row(
        Op::StartProgram,
        "start_program",
        0xC000_0800,
        true,
        RESERVED,
    ),
    row(
        Op::WaitForIdle,
        "wait_for_idle",
        0xC000_0900,
        true,
        RESERVED,
    ),
    row(
        Op::SetInstFmt,
        "set_inst_fmt",
        0xC001_0A00,
        false,
        BASE_FORMAT,
    ),
    row(
        Op::SetInpFmt,
        "set_inp_fmt",
        0xC003_0B00,
        false,
        &[
            dec("input index"),
            hex("base address"),
            hex("format"),
            dec("height"),
        ],
    ),
    row(
        Op::SetOutFmt,
        "set_out_fmt",
        0xC003_0C00,
        false,
        &[
            dec("output index"),
            hex("base address"),
            hex("format"),
            dec("height"),
        ],
    ),
    row(
        Op::SetCondOutFmt,
        "set_cond_out_fmt",
        0xC002_0D00,
        false,
        &[hex("base address"), hex("format"), dec("height")],
    ),
    row(
        Op::SetConstfFmt,
        "set_constf_fmt",
        0xC001_0E00,
        false,
        BASE_FORMAT,
    ),
    row(
        Op::SetConstiFmt,
        "set_consti_fmt",
        0xC001_0F00,
        false,
        BASE_FORMAT,
    ),
    row(
        Op::SetConstbFmt,
        "set_constb_fmt",
        0xC001_1000,
        false,
        BASE_FORMAT,
    ),
    row(
        Op::InvInstCache,
        "inv_inst_cache",
        0xC000_1100,
        true,
        RESERVED,
    ),
    row(
        Op::InvConstfCache,
        "inv_constf_cache",
        0xC000_1200,
        true,
        RESERVED,
    ),
    row(
        Op::InvConstiCache,
        "inv_consti_cache",
        0xC000_1300,
        true,
        RESERVED,
    ),
    row(
        Op::InvConstbCache,
        "inv_constb_cache",
        0xC000_1400,
        true,
        RESERVED,
    ),
    row(
        Op::InvCondOutCache,
        "inv_cond_out_cache",
        0xC000_1500,
        true,
        RESERVED,
    ),
    row(
        Op::InvInpCache,
        "inv_inp_cache",
        0xC000_1600,
        true,
        RESERVED,
    ),
    row(
        Op::FlushOutCache,
        "flush_out_cache",
        0xC000_1700,
        true,
        RESERVED,
    ),
    row(
        Op::FlushCondOutCache,
        "flush_cond_out_cache",
        0xC000_1800,
        true,
        RESERVED,
    ),
    row(
        Op::SetOutMask,
        "set_out_mask",
        0xC000_1900,
        true,
        &[dec("mask")],
    ),
    row(
        Op::SetCondOutMask,
        "set_cond_out_mask",
        0xC000_1A00,
        true,
        &[dec("mask")],
    ),
    row(
        Op::SetCondTest,
        "set_cond_test",
        0xC000_1B00,
        true,
        &[dec("condition")],
    ),
    row(
        Op::SetCondLoc,
        "set_cond_loc",
        0xC000_1C00,
        true,
        &[dec("location")],
    ),
];

impl Op {
    /// Its row of table 3.
    pub fn info(self) -> &'static OpInfo {
        &OPS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The command with this exact opcode dword.
    pub fn from_opcode(dword: u32) -> Option<Op> {
        OPS.iter().find(|r| r.opcode == dword).map(|r| r.op)
    }

    /// The command with this id (opcode bits 15:8), whatever the rest of the dword says.
    pub fn from_id(id: u32) -> Option<Op> {
        OPS.iter().find(|r| r.id() == id).map(|r| r.op)
    }

    /// The command with this name (the seed's spelling, lower case).
    pub fn from_name(name: &str) -> Option<Op> {
        OPS.iter().find(|r| r.name == name).map(|r| r.op)
    }
}
