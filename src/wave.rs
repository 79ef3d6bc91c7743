//! `wavejit wave FILE --state IN.json`: one wave of a kernel from a given state, for every ISA
//! (DESIGN.md "`wavejit wave`"). The state is the launch: no launch ABI is applied. The wave
//! is wave 0 of work-group (0,0,0) of a grid of exactly one wave.
//!
//! State (input and output), registers named in the ISA's own syntax
//! ([`crate::frontend::RegisterNames`]):
//! ```json
//! {
//!   "lanes": 64,                                  optional; must be the target's wave size
//!   "exec": "0xffffffffffffffff",                 hex lane mask; default every lane
//!   "vector": {"v1": [7, 8, ...]},                per-lane registers: one value per lane,
//!                                                 or one value for every lane
//!   "scalar": {"s0": 5, "m0": "0xffff"},          wave-uniform registers
//!   "memory": [{"address": 4294967296, "bytes": "0a0b0c0d"}],
//!   "lds": "00ff...",                             group-shared memory from offset 0
//!   "constants": {"cb0": "0000803f..."}           constant buffers (TeraScale, IL)
//! }
//! ```
//! Values are numbers or `0x` strings. Memory ranges are the only addressable guest memory;
//! each is placed at its own address (any address; ranges must not overlap). Constant buffers
//! are placed after the last range. Unnamed registers start at 0. An ISA whose code
//! addresses memory through a window binds it at the lowest range's address rounded down to
//! 64 KiB ([`crate::frontend::RegisterNames::bind_memory`]: TeraScale's pool offset `o` is
//! that base plus `o`; ranges from address 0 make pool offsets addresses). The LDS is the input's `lds` bytes, at least the kernel's LDS size, zero
//! beyond; private memory starts zeroed.
//!
//! The output has the same form, registers under their canonical names (TeraScale's `T1.X`
//! comes back as `R1.x`): every register the input named and every register whose
//! value the run changed (all lanes of a vector register, as unsigned numbers), the final
//! `exec`, the memory ranges and (when the input gave one) the LDS after the run, `instructions` (guest instructions
//! executed) and, when the wave stopped early, `fault`: the guest fault's one-line message
//! (kernel, pc, lane, address), or `out of fuel after N guest instructions`. A fault is a
//! result, not an error: the command then still exits 0.
//!
//! `--trace PATH` writes one JSON line per executed guest instruction:
//! `{"pc": 16, "text": "v_add_u32_e32 v1, v0, v1", "exec": "0x...", "writes": {"v1": [...]}}`
//! with the exec mask before the instruction and the registers it wrote with their values
//! after it. The trace comes from the reference interpreter, which steps the lifted code one
//! guest instruction at a time (with `--engine jit` the final state is the JIT's); a
//! guest instruction that lifts to no IR (a nop, a wait) has no line, and a VLIW group's
//! slots may share one line when the lifter interleaves them.

use crate::frontend::{RegRef, RegisterNames, WaveProgram};
use crate::{EngineKind, Error, Result};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;
use wavejit_ir::{Block, Reg};
use wavejit_runtime::interp::{InterpProgram, Tracer};
use wavejit_runtime::solo::{self, End, Solo};
use wavejit_runtime::{BlockExit, GuestMemory, WaveCtx, WaveState, GUEST_BASE};

/// Options of `wavejit wave`.
pub struct WaveOptions<'a> {
    pub file: &'a Path,
    pub state: &'a Path,
    pub out: Option<&'a Path>,
    pub target: Option<&'a str>,
    /// The kernels' encoding (`--encoding`; default the file's own).
    pub encoding: Option<&'a str>,
    pub kernel: Option<&'a str>,
    pub engine: EngineKind,
    pub fuel: u64,
    pub trace: Option<&'a Path>,
}

/// Runs the command; the output state as JSON text.
pub fn run(o: &WaveOptions<'_>) -> Result<String> {
    let module = crate::cli::load(o.file, o.target, o.encoding)?;
    let kernels = module.kernels();
    let kernel = match o.kernel {
        Some(k) => k.to_string(),
        None => kernels
            .first()
            .cloned()
            .ok_or_else(|| Error::Other("the file has no kernel".into()))?,
    };
    let program = module.wave(&kernel)?;
    let text = std::fs::read_to_string(o.state).map_err(|e| Error::io(o.state, e))?;
    let input: Value = serde_json::from_str(&text)
        .map_err(|e| Error::Usage(format!("{}: {e}", o.state.display())))?;
    let start = State::parse(&input, &program)
        .map_err(|e| Error::Usage(format!("{}: {e}", o.state.display())))?;
    let solo = start.solo(&program)?;
    let initial = solo.state.clone();
    if let Some(path) = o.trace {
        trace(&program, solo.duplicate().map_err(mem)?, o.fuel, path)?;
    }
    let engine = o.engine.engine()?;
    let run = solo::run(&*engine, &program.lifted.func, solo, o.fuel);
    let output = start.output(&program, &initial, &run)?;
    serde_json::to_string_pretty(&output).map_err(|e| Error::Other(e.to_string()))
}

fn mem(e: wavejit_runtime::MemError) -> Error {
    Error::Other(e.to_string())
}

/// A parsed input state.
struct State {
    exec: u64,
    /// (name, register, values: one, or one per lane).
    regs: Vec<(String, RegRef, Vec<u32>)>,
    memory: Vec<(u64, Vec<u8>)>,
    lds: Option<Vec<u8>>,
    constants: Vec<(String, Vec<u8>)>,
}

fn number(v: &Value, what: &str) -> std::result::Result<u64, String> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .ok_or_else(|| format!("{what}: {n} is not an unsigned integer")),
        Value::String(s) => {
            let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"));
            match digits {
                Some(h) => u64::from_str_radix(h, 16),
                None => s.parse(),
            }
            .map_err(|_| format!("{what}: '{s}' is not a number"))
        }
        _ => Err(format!("{what}: expected a number or a 0x string")),
    }
}

fn u32_of(v: &Value, what: &str) -> std::result::Result<u32, String> {
    let n = number(v, what)?;
    u32::try_from(n).map_err(|_| format!("{what}: {n:#x} does not fit in 32 bits"))
}

fn hex_bytes(v: &Value, what: &str) -> std::result::Result<Vec<u8>, String> {
    let s = v
        .as_str()
        .ok_or_else(|| format!("{what}: expected a hex string"))?;
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if !s.len().is_multiple_of(2) {
        return Err(format!("{what}: odd number of hex digits"));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&s[i..i + 2], 16)
                .map_err(|_| format!("{what}: '{}' is not hex", &s[i..i + 2]))
        })
        .collect()
}

fn hex_string(bytes: &[u8]) -> String {
    solo::hex(bytes)
}

fn lane_mask(lanes: u32) -> u64 {
    if lanes >= 64 {
        u64::MAX
    } else {
        (1u64 << lanes) - 1
    }
}

impl State {
    fn parse(v: &Value, p: &WaveProgram) -> std::result::Result<State, String> {
        let obj = v.as_object().ok_or("the state is not a JSON object")?;
        const KEYS: [&str; 7] = [
            "lanes",
            "exec",
            "vector",
            "scalar",
            "memory",
            "lds",
            "constants",
        ];
        if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!("unknown key '{k}' (keys: {})", KEYS.join(", ")));
        }
        let lanes = p.lifted.func.layout.wave_size;
        if let Some(l) = obj.get("lanes") {
            let l = number(l, "lanes")?;
            if l != u64::from(lanes) {
                return Err(format!("lanes {l}: the target's waves have {lanes} lanes"));
            }
        }
        let exec = match obj.get("exec") {
            Some(e) => number(e, "exec")?,
            None => lane_mask(lanes),
        };
        if exec & !lane_mask(lanes) != 0 {
            return Err(format!(
                "exec {exec:#x} names lanes beyond the {lanes} of a wave"
            ));
        }
        let mut regs = Vec::new();
        for (key, lane_file) in [("vector", true), ("scalar", false)] {
            let Some(group) = obj.get(key) else { continue };
            let group = group
                .as_object()
                .ok_or_else(|| format!("{key}: expected an object of registers"))?;
            for (name, value) in group {
                let reg = p
                    .names
                    .lookup(name)
                    .ok_or_else(|| format!("{key}: unknown register '{name}'"))?;
                let values = match (reg, value) {
                    (RegRef::Lane(_), Value::Array(a)) if a.len() == lanes as usize => a
                        .iter()
                        .map(|x| u32_of(x, name))
                        .collect::<std::result::Result<_, _>>()?,
                    (RegRef::Lane(_), Value::Array(a)) => {
                        return Err(format!("{name}: {} values for {lanes} lanes", a.len()))
                    }
                    (RegRef::Lane(_), x) if lane_file => vec![u32_of(x, name)?],
                    (RegRef::Uniform(_), x) if !lane_file => vec![u32_of(x, name)?],
                    (RegRef::Lane(_), _) => {
                        return Err(format!(
                            "{name} is a per-lane register: put it under vector"
                        ))
                    }
                    (RegRef::Uniform(_), _) => {
                        return Err(format!(
                            "{name} is a wave-uniform register: put it under scalar"
                        ))
                    }
                };
                regs.push((name.clone(), reg, values));
            }
        }
        let mut memory = Vec::new();
        if let Some(m) = obj.get("memory") {
            let ranges = m.as_array().ok_or("memory: expected a list of ranges")?;
            for (i, r) in ranges.iter().enumerate() {
                let what = format!("memory[{i}]");
                let addr = number(
                    r.get("address").ok_or(format!("{what}: no address"))?,
                    &what,
                )?;
                let bytes = hex_bytes(r.get("bytes").ok_or(format!("{what}: no bytes"))?, &what)?;
                memory.push((addr, bytes));
            }
        }
        memory.sort_by_key(|(a, _)| *a);
        for w in memory.windows(2) {
            if w[0]
                .0
                .checked_add(w[0].1.len() as u64)
                .is_none_or(|end| end > w[1].0)
            {
                return Err(format!(
                    "memory ranges at {:#x} and {:#x} overlap",
                    w[0].0, w[1].0
                ));
            }
        }
        let lds = obj.get("lds").map(|l| hex_bytes(l, "lds")).transpose()?;
        let mut constants = Vec::new();
        if let Some(c) = obj.get("constants") {
            let c = c.as_object().ok_or("constants: expected an object")?;
            for (name, bytes) in c {
                constants.push((name.clone(), hex_bytes(bytes, name)?));
            }
        }
        Ok(State {
            exec,
            regs,
            memory,
            lds,
            constants,
        })
    }

    /// The wave's start: registers, memory, LDS and private memory. Guest memory is
    /// reserved from the lowest range's address (rounded down to 64 KiB; [`GUEST_BASE`] without
    /// ranges) to past the last range and the constant buffers.
    fn solo(&self, p: &WaveProgram) -> Result<Solo> {
        let layout = &p.lifted.func.layout;
        let base = self.memory.first().map_or(GUEST_BASE, |(a, _)| a & !0xffff);
        let end = self
            .memory
            .iter()
            .map(|(a, b)| a + b.len() as u64)
            .max()
            .unwrap_or(base);
        let consts: u64 = self
            .constants
            .iter()
            .map(|(_, b)| b.len() as u64 + 1024)
            .sum();
        let reserve = (end - base + consts + (1 << 20)).next_power_of_two();
        let mut s = Solo {
            state: WaveState::new(std::sync::Arc::new(layout.clone())),
            mem: GuestMemory::with_reserve_at(base, reserve).map_err(mem)?,
            lds: Vec::new(),
            private: Vec::new(),
            private_lane_bytes: 0,
            watch: Vec::new(),
        };
        p.names.bind_memory(&mut s.state, s.mem.base());
        for (i, (addr, bytes)) in self.memory.iter().enumerate() {
            s.mem.alloc_at(*addr, bytes).map_err(mem)?;
            s.watch
                .push((format!("memory[{i}]"), *addr, bytes.len() as u64));
        }
        for (name, bytes) in &self.constants {
            let addr = s.mem.alloc_bytes(bytes, 256).map_err(mem)?;
            p.names
                .bind_constants(name, addr, &mut s.state)
                .ok_or_else(|| Error::Usage(format!("constants: no constant buffer '{name}'")))?;
        }
        for (_, reg, values) in &self.regs {
            match *reg {
                RegRef::Uniform(r) => s.state.set_uniform(r, values[0]),
                RegRef::Lane(r) => {
                    for lane in 0..layout.wave_size {
                        let v = values.get(lane as usize).copied().unwrap_or(values[0]);
                        s.state.set_lane(r, lane, v);
                    }
                }
            }
        }
        p.names.set_exec(&mut s.state, self.exec);
        s.lds = self.lds.clone().unwrap_or_default();
        if s.lds.len() < p.lds_bytes as usize {
            s.lds.resize(p.lds_bytes as usize, 0);
        }
        s.private_lane_bytes = p.private_lane_bytes;
        s.private = vec![0; (p.private_lane_bytes * layout.wave_size) as usize];
        Ok(s)
    }

    /// The output state of `run`.
    fn output(&self, p: &WaveProgram, initial: &WaveState, run: &solo::Run) -> Result<Value> {
        let fault = match &run.end {
            End::Done => None,
            End::Fault(..) => run
                .fault
                .as_ref()
                .map(|f| format!("kernel {}: {f}", p.lifted.func.name)),
            End::OutOfFuel => Some(format!(
                "out of fuel after {} guest instructions",
                run.executed
            )),
            End::EngineError(e) => return Err(Error::Other(e.clone())),
        };
        let Some(state) = &run.state else {
            return Err(Error::Other("the engine did not run".into()));
        };
        let named: Vec<RegRef> = self.regs.iter().map(|(_, r, _)| *r).collect();
        let mut vector = Map::new();
        let mut scalar = Map::new();
        let lanes = p.lifted.func.layout.wave_size;
        for (name, reg) in p.names.all() {
            if !named.contains(&reg) && !changed(reg, initial, state, lanes) {
                continue;
            }
            match reg {
                RegRef::Uniform(r) => {
                    scalar.insert(name, json!(state.uniform(r)));
                }
                RegRef::Lane(r) => {
                    let v: Vec<u32> = (0..lanes).map(|l| state.lane(r, l)).collect();
                    vector.insert(name, json!(v));
                }
            }
        }
        let mut out = Map::new();
        out.insert("lanes".into(), json!(lanes));
        out.insert("exec".into(), json!(format!("{:#x}", p.names.exec(state))));
        out.insert("vector".into(), Value::Object(vector));
        out.insert("scalar".into(), Value::Object(scalar));
        let memory: Vec<Value> = self
            .memory
            .iter()
            .enumerate()
            .map(|(i, (addr, _))| {
                let bytes = run.memory(&format!("memory[{i}]")).unwrap_or_default();
                json!({"address": addr, "bytes": hex_string(bytes)})
            })
            .collect();
        out.insert("memory".into(), Value::Array(memory));
        if self.lds.is_some() {
            let lds = run.memory("lds").unwrap_or_default();
            out.insert("lds".into(), json!(hex_string(lds)));
        }
        out.insert("instructions".into(), json!(run.executed));
        if let Some(f) = fault {
            out.insert("fault".into(), json!(f));
        }
        Ok(Value::Object(out))
    }
}

fn changed(reg: RegRef, a: &WaveState, b: &WaveState, lanes: u32) -> bool {
    match reg {
        RegRef::Uniform(r) => a.uniform(r) != b.uniform(r),
        RegRef::Lane(r) => (0..lanes).any(|l| a.lane(r, l) != b.lane(r, l)),
    }
}

/// Collects one trace line per guest instruction.
struct TraceLines<'a> {
    names: &'a dyn RegisterNames,
    /// Register -> its name, for the writes.
    by_reg: BTreeMap<(u16, u32), (String, RegRef)>,
    listing: BTreeMap<u64, &'a str>,
    lanes: u32,
    /// The instruction being collected: pc, exec before it, registers written.
    current: Option<(u64, u64, Vec<Reg>)>,
    lines: Vec<String>,
}

impl TraceLines<'_> {
    fn flush(&mut self, state: &WaveState) {
        let Some((pc, exec, wrote)) = self.current.take() else {
            return;
        };
        let mut writes = Map::new();
        for reg in wrote {
            let Some((name, r)) = self.by_reg.get(&(reg.file.0, reg.index)) else {
                continue;
            };
            let v = match *r {
                RegRef::Uniform(r) => json!(state.uniform(r)),
                RegRef::Lane(r) => json!((0..self.lanes)
                    .map(|l| state.lane(r, l))
                    .collect::<Vec<_>>()),
            };
            writes.insert(name.clone(), v);
        }
        let text = self.listing.get(&pc).copied().unwrap_or("");
        let line = json!({"pc": pc, "text": text, "exec": format!("{exec:#x}"), "writes": writes});
        self.lines.push(line.to_string());
    }
}

impl Tracer for TraceLines<'_> {
    fn guest_inst(&mut self, pc: u32, state: &WaveState) {
        let pc = u64::from(pc);
        // IR of a pc the listing does not have (a lifter's bookkeeping) joins the line before.
        if !self.listing.contains_key(&pc) || self.current.as_ref().is_some_and(|c| c.0 == pc) {
            return;
        }
        self.flush(state);
        self.current = Some((pc, self.names.exec(state), Vec::new()));
    }

    fn wrote(&mut self, reg: Reg, cells: u32) {
        if let Some(c) = self.current.as_mut() {
            for k in 0..cells {
                let r = reg.offset(k);
                if !c.2.contains(&r) {
                    c.2.push(r);
                }
            }
        }
    }
}

/// Runs `solo` on the interpreter guest instruction by guest instruction and writes the
/// trace to `path`.
fn trace(p: &WaveProgram, mut s: Solo, fuel: u64, path: &Path) -> Result<()> {
    let func = p.lifted.func.clone();
    let program = InterpProgram::new(func.clone())?;
    let mut lines = TraceLines {
        names: &*p.names,
        by_reg: p
            .names
            .all()
            .into_iter()
            .map(|(n, r)| {
                let reg = match r {
                    RegRef::Uniform(r) | RegRef::Lane(r) => r,
                };
                ((reg.file.0, reg.index), (n, r))
            })
            .collect(),
        listing: p.listing.iter().map(|(pc, t)| (*pc, t.as_str())).collect(),
        lanes: func.layout.wave_size,
        current: None,
        lines: Vec::new(),
    };
    let mut block = Block(0);
    let mut executed = 0u64;
    while let Some(data) = func.blocks.get(block.index()) {
        executed += u64::from(data.guest_insts).max(1);
        if executed > fuel {
            break;
        }
        let mut ctx = WaveCtx {
            state: &mut s.state,
            mem: &s.mem,
            lds: &mut s.lds,
            private: &mut s.private,
            private_lane_bytes: s.private_lane_bytes,
            hints: &mut Default::default(),
        };
        match program.run_block_traced(block, &mut ctx, Some(&mut lines)) {
            Ok(BlockExit::Jump(b) | BlockExit::Barrier(b)) => block = b,
            Ok(BlockExit::Return) | Err(_) => break,
        }
    }
    lines.flush(&s.state);
    let mut f = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
    for l in &lines.lines {
        writeln!(f, "{l}").map_err(|e| Error::io(path, e))?;
    }
    Ok(())
}
