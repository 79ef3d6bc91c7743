//! Errors of execution. A [`Fault`] is raised by a block (the guest did something illegal); the
//! dispatcher turns it into an [`ExecError`] naming the kernel and the wave.

use wavejit_ir::MemSpace;

/// What went wrong in the guest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// A memory access outside the space's bounds (global: outside every buffer).
    OutOfBounds {
        space: MemSpace,
        write: bool,
    },
    /// A jump to an address that is not an instruction of the program.
    BadJump,
    StackOverflow,
    StackUnderflow,
    /// A global atomic whose address is not aligned to its width.
    Misaligned {
        space: MemSpace,
    },
    /// An indexed register access outside its file (the fault's `addr` holds the register
    /// index that was asked for).
    RegisterIndex,
    /// The program trapped (explicit trap, or an instruction that cannot run there).
    Trap(String),
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FaultKind::OutOfBounds { space, write } => write!(
                f,
                "out-of-bounds {} {:?} memory",
                if *write { "store to" } else { "load from" },
                space
            ),
            FaultKind::BadJump => f.write_str("jump outside the program"),
            FaultKind::StackOverflow => f.write_str("stack overflow"),
            FaultKind::StackUnderflow => f.write_str("stack underflow"),
            FaultKind::Misaligned { space } => write!(f, "misaligned atomic on {space:?} memory"),
            FaultKind::RegisterIndex => f.write_str("register index outside its file"),
            FaultKind::Trap(s) => f.write_str(s),
        }
    }
}

/// A guest fault raised while running a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    /// Guest pc of the faulting instruction.
    pub pc: u32,
    pub lane: Option<u32>,
    pub addr: Option<u64>,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at pc {:#x}{}",
            self.kind,
            self.pc,
            where_(&self.lane, &self.addr)
        )
    }
}

/// Which wave: workgroup id and wave index inside the workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveId {
    pub group: [u32; 3],
    pub wave: u32,
}

impl std::fmt::Display for WaveId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y, z] = self.group;
        write!(f, "group ({x},{y},{z}) wave {}", self.wave)
    }
}

fn where_(lane: &Option<u32>, addr: &Option<u64>) -> String {
    let mut s = String::new();
    if let Some(l) = lane {
        s += &format!(" lane {l}");
    }
    if let Some(a) = addr {
        s += &format!(" address {a:#x}");
    }
    s
}

/// An error of a whole run.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ExecError {
    #[error("kernel {kernel}: guest fault at pc {pc:#x}, {wave}{}: {kind}", where_(.lane, .addr))]
    GuestFault {
        kernel: String,
        pc: u32,
        wave: WaveId,
        lane: Option<u32>,
        addr: Option<u64>,
        kind: FaultKind,
    },
    #[error("kernel {kernel}: {wave} ran out of fuel after {executed} guest instructions at pc {pc:#x} (endless loop?)")]
    FuelExhausted {
        kernel: String,
        wave: WaveId,
        pc: u32,
        executed: u64,
    },
    #[error("kernel {kernel}: wall-clock limit of {seconds} s exceeded at pc {pc:#x}, {wave}")]
    Timeout {
        kernel: String,
        wave: WaveId,
        pc: u32,
        seconds: f64,
    },
    #[error("kernel {kernel}: barrier deadlock: {waiting} waves wait at a barrier that {ended} finished waves never reach")]
    BarrierDeadlock {
        kernel: String,
        waiting: u32,
        ended: u32,
    },
    #[error("{0}")]
    Setup(String),
    #[error(transparent)]
    Memory(#[from] crate::memory::MemError),
    #[error("emulator error: {0}")]
    Emulator(String),
}

impl ExecError {
    pub fn from_fault(kernel: &str, wave: WaveId, f: Fault) -> ExecError {
        ExecError::GuestFault {
            kernel: kernel.to_string(),
            pc: f.pc,
            wave,
            lane: f.lane,
            addr: f.addr,
            kind: f.kind,
        }
    }
}
