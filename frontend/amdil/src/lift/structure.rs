//! The structure check of one body (main, a function, a macro), before lifting (7.2.2
//! L3063-L3085): every if, loop and switch closes in the same block it opens in; `else`,
//! `case` and `default` (one per switch, L3709) stand in their own blocks; `break` has a loop
//! or switch of the same body around it and `continue` a loop (so a function's or a macro's
//! `break` never leaves its caller's loop); `endmain`/`end`, `endfunc` and `mend` stand
//! outside every block (L3085); a switch's case values differ (L4022: as in C).

use super::{refusal, LiftError, LiftErrorKind};
use crate::inst::Inst;
use std::collections::HashMap;
use std::ops::RangeInclusive;

/// Checks the structure of one body, `code[range]`: main through its `endmain` or `end`, a
/// function through its `endfunc`, a macro through its `mend`. Returns the body's depth, the
/// most levels its blocks nest, counting at each `mcall` the depth `span` gives for the
/// macro's body; records each switch's case values in `cases` by the switch's pc.
pub(super) fn structure(
    code: &[Inst],
    pcs: &[u64],
    range: RangeInclusive<usize>,
    span: &dyn Fn(&Inst) -> u32,
    cases: &mut HashMap<u64, Vec<u32>>,
) -> Result<u32, LiftError> {
    enum Open {
        If { has_else: bool },
        Loop,
        Switch { at: u64, has_default: bool },
    }
    let mut open: Vec<Open> = Vec::new();
    let mut depth = 0;
    for i in range {
        let inst = &code[i];
        let Some(row) = inst.row() else { continue };
        let bad = |why: &str| Err(refusal(LiftErrorKind::Invalid, pcs[i], inst, why));
        match row.mnemonic {
            "if_logicalz" | "if_logicalnz" | "ifc" | "ifnz" => {
                open.push(Open::If { has_else: false })
            }
            "else" => match open.last_mut() {
                Some(Open::If { has_else }) if !*has_else => *has_else = true,
                Some(Open::If { .. }) => return bad("a second else in one if"),
                _ => return bad("else without an open if"),
            },
            "endif" => match open.pop() {
                Some(Open::If { .. }) => {}
                _ => return bad("endif without an open if (L3768)"),
            },
            "whileloop" | "loop" => open.push(Open::Loop),
            "endloop" => match open.pop() {
                Some(Open::Loop) => {}
                _ => return bad("endloop without an open loop in the same block (L3084)"),
            },
            "switch" => {
                open.push(Open::Switch {
                    at: pcs[i],
                    has_default: false,
                });
                cases.insert(pcs[i], Vec::new());
            }
            "case" => match open.last() {
                Some(&Open::Switch { at, .. }) => {
                    let v = inst.extra.first().copied().unwrap_or(0);
                    let values = cases.entry(at).or_default();
                    if values.contains(&v) {
                        return bad("a case value twice in one switch (L4022: as in C)");
                    }
                    values.push(v);
                }
                _ => return bad("case outside a switch"),
            },
            "default" => match open.last_mut() {
                Some(Open::Switch { has_default, .. }) if !*has_default => *has_default = true,
                Some(Open::Switch { .. }) => return bad("a second default in one switch (L3709)"),
                _ => return bad("default outside a switch"),
            },
            "endswitch" => match open.pop() {
                Some(Open::Switch { .. }) => {}
                _ => return bad("endswitch without an open switch"),
            },
            "break" | "breakc" | "break_logicalz" | "break_logicalnz"
                if !open
                    .iter()
                    .any(|o| matches!(o, Open::Loop | Open::Switch { .. })) =>
            {
                return bad("break outside a loop or switch (L3448)")
            }
            "continue" | "continuec" | "continue_logicalz" | "continue_logicalnz"
                if !open.iter().any(|o| matches!(o, Open::Loop)) =>
            {
                return bad("continue outside a loop (L3659)")
            }
            "endmain" | "end" if !open.is_empty() => {
                return bad("main ends inside an if, loop or switch (L3085)")
            }
            "endfunc" if !open.is_empty() => {
                return bad("the function ends inside an if, loop or switch (L3085)")
            }
            "mend" if !open.is_empty() => {
                return bad("the macro ends inside an if, loop or switch")
            }
            "mcall" => depth = depth.max(open.len() as u32 + span(inst)),
            _ => {}
        }
        depth = depth.max(open.len() as u32);
    }
    Ok(depth)
}
