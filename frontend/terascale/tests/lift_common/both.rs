//! The TeraScale harnesses' entry to the runtime's one single-wave runner
//! (`wavejit_runtime::solo`): a start runs on the reference interpreter and on the JIT, each
//! on its own copy of memory, and the two must agree bit for bit. lift_common, tex_common,
//! alu_common, lift_cf.rs and lift_lds.rs all run waves through here.
use std::sync::{Arc, OnceLock};
use wavejit_ir::Function;
use wavejit_jit::Jit;
use wavejit_runtime::solo::{self, Diff, End, Run, Solo};
use wavejit_runtime::{GuestMemory, Interpreter};

/// Differences shown when the engines disagree.
const DIFF_LINES: usize = 40;

/// The JIT every test of the process shares (its code cache is shared too).
pub fn jit() -> &'static Jit {
    static JIT: OnceLock<Jit> = OnceLock::new();
    JIT.get_or_init(|| Jit::new().expect("host supported by Cranelift"))
}

fn report(what: &str, d: &Diff) -> String {
    let mut text = format!("{what}: {}\n", d.headline());
    for l in d.lines.iter().take(DIFF_LINES) {
        text += l;
        text.push('\n');
    }
    if d.lines.len() > DIFF_LINES {
        text += &format!("... {} more\n", d.lines.len() - DIFF_LINES);
    }
    text
}

/// Runs `start` on the interpreter and the JIT for at most `fuel` guest instructions and
/// panics unless they agree on the outcome (a fault's kind and pc), every register cell and
/// every byte of the watched ranges, LDS and private memory; returns (interpreter's run,
/// JIT's run).
pub fn run_both(f: &Arc<Function>, start: Solo, fuel: u64) -> (Run, Run) {
    let (a, b, diff) = solo::run_both(&Interpreter, jit(), f, start, fuel);
    if let Some(d) = diff {
        let what = format!("interpreter and JIT disagree on `{}`", f.name);
        panic!("{}", report(&what, &d));
    }
    (a, b)
}

/// The full fault of run `r` as text (kind, pc, lane, address), if it ended with one.
pub fn fault_text(r: &Run) -> Option<String> {
    r.fault.as_ref().map(ToString::to_string)
}

/// For two runs [`run_both`] found agreeing that ended with a fault: panics unless the
/// registers and memories the fault left behind agree too (the runner does not compare
/// them; these harnesses asserted it before they shared the runner).
pub fn same_after_fault(f: &Function, a: &Run, b: &Run) {
    if !matches!(a.end, End::Fault(..)) {
        return;
    }
    let settled = |r: &Run| Run {
        end: End::Done,
        fault: None,
        state: r.state.clone(),
        mem: None,
        memories: r.memories.clone(),
        executed: r.executed,
    };
    if let Some(d) = solo::compare(&f.layout, &settled(a), &settled(b)) {
        let what = format!(
            "interpreter and JIT disagree on `{}` after the fault",
            f.name
        );
        panic!("{}", report(&what, &d));
    }
}

/// The bytes of the watched range or memory `name` after run `r`.
pub fn memory(r: &Run, name: &str) -> Vec<u8> {
    r.memory(name)
        .unwrap_or_else(|| panic!("no memory {name}"))
        .to_vec()
}

/// A watch list of every buffer allocated in `mem` (named by index and address).
pub fn watch_buffers(mem: &GuestMemory) -> Vec<(String, u64, u64)> {
    mem.buffers()
        .iter()
        .enumerate()
        .map(|(i, b)| (format!("buffer{i}@{:#x}", b.start), b.start, b.len))
        .collect()
}
