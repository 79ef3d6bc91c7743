//! A machine-code file of either ISA: r600-family objects (ELF32, [`crate::terascale`]) and
//! GCN code objects (ELF64, [`crate::gcn`]), told apart by the ELF header alone, so every
//! command takes either without being told which.

use crate::launch::{Prepared, RunOutcome, RunRequest};
use crate::{Error, Result};

/// A loaded object of either ISA.
pub enum Loaded {
    Gcn(crate::gcn::Loaded),
    TeraScale(crate::terascale::Loaded),
}

/// Loads `bytes` with the loader of its ISA; `target` (a chip name of that ISA) overrides the
/// chip in the file. Anything that is not an r600 object goes to the GCN loader, whose errors
/// name what is wrong with it.
pub fn load(bytes: &[u8], target: Option<&str>) -> Result<Loaded> {
    let r600 = crate::terascale::is_r600_object(bytes);
    if let Some(t) = target {
        let r600_target = wavejit_terascale::Chip::from_name(t).is_some();
        let gcn_target = wavejit_gcn::Gen::from_chip(t).is_some();
        if r600 && gcn_target || !r600 && r600_target {
            let (chip, file) = if r600 {
                ("a GCN", "an r600")
            } else {
                ("an r600", "a GCN")
            };
            return Err(Error::Usage(format!(
                "target '{t}' is {chip} chip, but the file is {file} object"
            )));
        }
    }
    Ok(if r600 {
        Loaded::TeraScale(crate::terascale::load(bytes, target)?)
    } else {
        Loaded::Gcn(crate::gcn::load(bytes, target)?)
    })
}

impl Loaded {
    /// `wavejit info`.
    pub fn describe(&self) -> String {
        match self {
            Loaded::Gcn(l) => crate::gcn::describe(l),
            Loaded::TeraScale(l) => crate::terascale::describe(l),
        }
    }

    /// `wavejit disasm`: the ISA's conventional listing of every kernel or the named one.
    pub fn disassemble(&self, kernel: Option<&str>) -> Result<String> {
        match self {
            Loaded::Gcn(l) => crate::gcn::disassemble(l, kernel),
            Loaded::TeraScale(l) => crate::terascale::disassemble(l, kernel),
        }
    }

    /// `wavejit disasm --ir`.
    pub fn lifted_ir(&self, kernel: Option<&str>) -> Result<String> {
        match self {
            Loaded::Gcn(l) => crate::gcn::lifted_ir(l, kernel),
            Loaded::TeraScale(l) => crate::terascale::lifted_ir(l, kernel),
        }
    }

    /// Places the arguments, lifts kernel `req.kernel` and prepares it on `req.engine`.
    pub fn prepare(&self, req: &RunRequest<'_>) -> Result<Box<dyn Prepared>> {
        Ok(match self {
            Loaded::Gcn(l) => Box::new(crate::gcn::prepare(l, req)?),
            Loaded::TeraScale(l) => Box::new(crate::terascale::prepare(l, req)?),
        })
    }

    /// [`Loaded::prepare`], then one dispatch over the grid.
    pub fn run(&self, req: &RunRequest<'_>) -> Result<RunOutcome> {
        RunOutcome::run(self.prepare(req)?)
    }
}
