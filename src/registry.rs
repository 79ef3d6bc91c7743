//! The registry: every ISA wavejit runs, in one list, and the lookups over it. This is the
//! only list of ISAs in the package; commands, fixtures, benchmarks and fuzzing loop over it.
//! Adding an ISA adds its module under `src/isa/` and one line here.

use crate::frontend::{Frontend, Module, Target};
use crate::{Error, Result};
use std::path::Path;

/// Every ISA, in the order files are tried.
pub static FRONTENDS: &[&dyn Frontend] = &[
    &crate::isa::gcn::GCN,
    &crate::isa::terascale::TERASCALE,
    &crate::isa::g13::G13_FRONTEND,
    &crate::isa::amdapp::AMDAPP,
    &crate::isa::amdil::AMDIL,
    &crate::isa::r5xx::R5XX,
];

/// The target a `--target` name names, with its frontend.
pub fn target(name: &str) -> Option<(&'static dyn Frontend, Target)> {
    FRONTENDS
        .iter()
        .find_map(|f| f.target(name).map(|t| (*f, t)))
}

/// Every target name, for messages.
pub fn target_names() -> String {
    FRONTENDS
        .iter()
        .map(|f| format!("{} ({})", f.target_names().join(", "), f.name()))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The frontend by its name (`gcn`, `terascale`).
pub fn frontend(name: &str) -> Option<&'static dyn Frontend> {
    FRONTENDS.iter().copied().find(|f| f.name() == name)
}

/// The frontend that runs the command streams of subcommand `command` (`ctm`) and the target
/// it runs them for: `target` (which must be one of that frontend's), or its canonical one.
pub fn stream_frontend(
    command: &str,
    target: Option<&str>,
) -> Result<(&'static dyn Frontend, Target)> {
    let runs = |f: &dyn Frontend| f.stream_command() == Some(command);
    let Some(frontend) = FRONTENDS.iter().copied().find(|f| runs(*f)) else {
        return Err(Error::Usage(format!(
            "no ISA runs {command} command streams"
        )));
    };
    match target {
        Some(name) => {
            let (f, t) = self::target(name).ok_or_else(|| unknown_target(name))?;
            if runs(f) {
                Ok((f, t))
            } else {
                Err(Error::Usage(format!(
                    "target '{name}' is a {} chip; {command} streams run on {}",
                    f.name(),
                    frontend.target_names().join(", ")
                )))
            }
        }
        None => {
            let canonical = frontend.target_names()[0];
            let t = frontend
                .target(canonical)
                .ok_or_else(|| unknown_target(canonical))?;
            Ok((frontend, t))
        }
    }
}

fn unknown_target(name: &str) -> Error {
    Error::Usage(format!(
        "unknown target '{name}' (targets: {})",
        target_names()
    ))
}

/// Loads the file at `path`: a binary file of the ISA that recognises it, or a text file
/// assembled for `target` (required for text). `target` overrides the chip a binary names.
pub fn load(path: &Path, target: Option<&str>) -> Result<Box<dyn Module>> {
    if let Some((frontend, default)) = FRONTENDS
        .iter()
        .find_map(|f| f.file_target(path).map(|t| (*f, t)))
    {
        return load_named(path, frontend, target, default);
    }
    let chosen = target
        .map(|t| self::target(t).ok_or_else(|| unknown_target(t)))
        .transpose()?;
    if FRONTENDS.iter().any(|f| f.takes_text(path)) {
        let Some((frontend, target)) = chosen else {
            return Err(Error::Usage(format!(
                "{}: a text file needs --target CHIP (targets: {})",
                path.display(),
                target_names()
            )));
        };
        if !frontend.takes_text(path) {
            return Err(Error::Usage(format!(
                "{}: {} does not assemble text files",
                path.display(),
                frontend.name()
            )));
        }
        let text = crate::asm_file::read_text(path)?;
        return frontend.assemble(path, &text, &target);
    }
    let (_, stem) = crate::asm_file::names(path);
    load_bytes(
        &crate::cli::read(path)?,
        &stem,
        chosen.as_ref().map(|(f, t)| (*f, t)),
    )
}

/// Loads a file that `frontend` recognises by its name ([`Frontend::file_target`]), for
/// `target` as that frontend names it, or for its `default`.
fn load_named(
    path: &Path,
    frontend: &dyn Frontend,
    target: Option<&str>,
    default: Target,
) -> Result<Box<dyn Module>> {
    let target = match target {
        None => default,
        Some(name) => frontend.target(name).ok_or_else(|| {
            Error::Usage(format!(
                "{}: unknown target '{name}' for {} files (targets: {})",
                path.display(),
                frontend.name(),
                frontend.target_names().join(", ")
            ))
        })?,
    };
    if frontend.takes_text(path) {
        return frontend.assemble(path, &crate::asm_file::read_text(path)?, &target);
    }
    let (shown, stem) = crate::asm_file::names(path);
    frontend
        .load(&crate::cli::read(path)?, &stem, Some(&target))
        .map_err(|e| match e {
            Error::Load(why) => Error::Load(format!("{shown}: {why}")),
            other => other,
        })
}

/// Loads a binary file with the frontend that recognises it (or, for a file no frontend
/// recognises, that of `target`); `name` (the file's stem) names the kernel of a file that
/// names none. A `target` of another ISA than the file's is an error.
pub fn load_bytes(
    bytes: &[u8],
    name: &str,
    target: Option<(&dyn Frontend, &Target)>,
) -> Result<Box<dyn Module>> {
    let Some(frontend) = FRONTENDS.iter().find(|f| f.sniff(bytes)) else {
        // No header matched: the first frontend's loader says what is wrong with the file.
        return match target {
            Some((f, t)) => f.load(bytes, name, Some(t)),
            None => FRONTENDS[0].load(bytes, name, None).map_err(|e| {
                let raw: Vec<&str> = FRONTENDS
                    .iter()
                    .filter(|f| f.takes_raw_code())
                    .flat_map(|f| f.target_names().iter().take(1).copied())
                    .collect();
                if raw.is_empty() {
                    e
                } else {
                    Error::Usage(format!(
                        "{e}; raw code without a header needs --target ({})",
                        raw.join(", ")
                    ))
                }
            }),
        };
    };
    match target {
        Some((f, t)) if f.name() != frontend.name() => Err(Error::Usage(format!(
            "target '{}' is a {} chip, but the file is a {} file",
            t.name,
            f.name(),
            frontend.name()
        ))),
        _ => frontend.load(bytes, name, target.map(|(_, t)| t)),
    }
}
