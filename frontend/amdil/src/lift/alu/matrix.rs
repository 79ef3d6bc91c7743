//! The matrix macros of the float section (7.11): each reads its matrix operand as four (or
//! fewer) rows, the operand's register and the ones numbered after it, every row with the
//! operand's swizzle and modifiers (`Lifter::src_row`). Products take the DX9 multiply: none
//! of these instructions has an `_ieee` control, and an IL multiply without one is the DX9
//! multiply (the rule `geometry` follows for `crs`, `nrm` and the others, `super::mul`).
//! Rules by seed 001 line:
//!
//! - `det` (L7754): the cofactor expansion the entry's pseudocode writes, in its order:
//!   f = v0.x ⊗ A - v0.y ⊗ B + v0.z ⊗ C - v0.w ⊗ D, summed left to right, where each of
//!   A-D is v1.k0 ⊗ M(k0) - v1.k1 ⊗ M(k1) + v1.k2 ⊗ M(k2) (k0 < k1 < k2 the components other
//!   than the v0 one) and M(k) = v2.p ⊗ v3.q - v2.q ⊗ v3.p (p < q the two components left).
//!   The pseudocode's third term lacks a closing parenthesis after `v3[0]*v2[3]` (L7760);
//!   it is closed there, as in the other three terms. f goes to all four components.
//!   The control must be `IL_MATRIX_4X4` (L7764).
//! - `mmul_matrix(op)` (L8517): component k of dst is dot4 (4x4, 4x3) or dot3 (3x4, 3x3,
//!   3x2) of src0 and row k of src1, for the 4, 3, 4, 3 or 2 rows of the kind; the others are
//!   not written (only the mask's 0 and 1 write them, L8524). The dot products are `dp4`'s and
//!   `dp3`'s (`geometry`). src1 must be a temp or a constant (L8521).
//! - `transpose` (L9108): row k of dst gets column k of the source matrix, the destination's
//!   mask and modifiers applied to each of dst, dst+1, dst+2, dst+3; every row is read before
//!   any is written. The pseudocode's `vdst1[1] = vsrc1[0]` contradicts the entry's
//!   "transposes the rows and columns" and its other fifteen lines; `vsrc1[1]` is read.
//!
//! Rows past the operand's own are lifted for unindexed `r#` (and `l#` sources) only.

use super::super::regs::Kind;
use super::super::Lifter;
use super::mul;
use crate::token::{DstComp, RegType};
use wavejit_ir::{Op, Value};
use wavejit_isa::LiftError;

use Kind::Float;

/// ILMatrix (Table 6.16; numbered as the `enum ILMatrix` of Appendix B, L14113): the rows
/// of each kind and the components of its dot products.
const KINDS: [(u32, usize); 5] = [(4, 4), (3, 4), (4, 3), (3, 3), (2, 3)];

impl Lifter<'_> {
    /// Lifts a matrix macro; `false` if `m` is not one.
    pub(super) fn lift_matrix(&mut self, m: &str) -> Result<bool, LiftError> {
        match m {
            "det" => {
                self.square()?;
                self.replicated(1, Float, |l| l.det())?
            }
            "mmul" => {
                let Some(&(rows, n)) = KINDS.get(usize::from(self.field("matrix"))) else {
                    return Err(self.invalid("mmul: the control is not an ILMatrix (Table 6.16)"));
                };
                if let Some(s) = self.inst().src.get(1) {
                    if s.reg.ty != RegType::TEMP && s.reg.ty != RegType::CONST_FLOAT {
                        return Err(
                            self.invalid("mmul: src1 must be a temp or a float constant (L8521)")
                        );
                    }
                }
                self.components(2, Float, |l, c| {
                    if c as u32 >= rows {
                        return Ok(None);
                    }
                    Ok(Some(l.dot_row(0, 1, c as u32, n, false)?))
                })?
            }
            "transpose" => {
                self.square()?;
                self.transpose()?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Refuses a control other than `IL_MATRIX_4X4` (L7764, L9156).
    fn square(&self) -> Result<(), LiftError> {
        if self.field("matrix") == 0 {
            Ok(())
        } else {
            Err(self.invalid(format!(
                "{}: the control must be IL_MATRIX_4X4 (L7764, L9156)",
                self.row().name
            )))
        }
    }

    fn det(&mut self) -> Result<Value, LiftError> {
        let mut v = [[None; 4]; 4];
        for (k, row) in v.iter_mut().enumerate() {
            for (c, x) in row.iter_mut().enumerate() {
                *x = Some(self.src_row(0, k as u32, c)?);
            }
        }
        let v = v.map(|r| r.map(|x| x.expect("read above")));
        let b = &mut self.b;
        let mut f = None;
        for j in 0..4 {
            let ks: Vec<usize> = (0..4).filter(|&k| k != j).collect();
            let mut cof = None;
            for (t, &k) in ks.iter().enumerate() {
                let pq: Vec<usize> = (0..4).filter(|&p| p != j && p != k).collect();
                let (p, q) = (pq[0], pq[1]);
                let x = mul(b, v[2][p], v[3][q]);
                let y = mul(b, v[2][q], v[3][p]);
                let minor = sub(b, x, y);
                let term = mul(b, v[1][k], minor);
                cof = Some(match cof {
                    None => term,
                    Some(a) if t == 1 => sub(b, a, term),
                    Some(a) => add(b, a, term),
                });
            }
            let term = mul(b, v[0][j], cof.expect("three terms"));
            f = Some(match f {
                None => term,
                Some(a) if j % 2 == 1 => sub(b, a, term),
                Some(a) => add(b, a, term),
            });
        }
        Ok(f.expect("four terms"))
    }

    fn transpose(&mut self) -> Result<(), LiftError> {
        self.operands(1, 1)?;
        let comps = self.dst_comps()?;
        // Component c of source row k is at 4k + c; every row is read before any is written.
        let mut src = Vec::new();
        if comps.contains(&DstComp::Write) {
            for k in 0..4 {
                for c in 0..4 {
                    src.push(self.src_row(0, k, c)?);
                }
            }
        }
        for k in 0..4 {
            let vals = std::array::from_fn(|c| {
                (comps[c] == DstComp::Write).then(|| src[4 * c + k as usize])
            });
            if k == 0 {
                self.write_dst(vals, [None; 4], Float)?;
            } else {
                self.write_dst_row(k, vals, Float)?;
            }
        }
        Ok(())
    }
}

fn sub(b: &mut wavejit_ir::FunctionBuilder, x: Value, y: Value) -> Value {
    super::fop(b, Op::Fsub, &[x, y])
}

fn add(b: &mut wavejit_ir::FunctionBuilder, x: Value, y: Value) -> Value {
    super::fop(b, Op::Fadd, &[x, y])
}
