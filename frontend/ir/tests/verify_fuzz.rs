//! The verifier and the printer never panic, whatever a `Function` holds: valid random
//! functions are damaged field by field (operands, types, registers, targets, layout, order).
//! Whatever the verifier still accepts must print and parse back exactly (the text form's
//! promise for valid functions).

use proptest::collection::vec;
use proptest::prelude::*;
use wavejit_ir::random::{generate, GlobalBuffer, Options};
use wavejit_ir::text::{all_ops, parse, print};
use wavejit_ir::verify::verify;
use wavejit_ir::*;

fn options() -> Options {
    Options {
        max_blocks: 4,
        max_block_insts: 16,
        global: Some(GlobalBuffer {
            base: 0x1000,
            len: 1024,
        }),
        lds_bytes: Some(256),
        private_bytes: Some(16),
        faults: true,
        ..Options::default()
    }
}

const TYPES: [Option<Type>; 6] = [
    None,
    Some(Type::uniform(ScalarType::I32)),
    Some(Type::lane(ScalarType::I32)),
    Some(Type::MASK),
    Some(Type::uniform(ScalarType::I64)),
    Some(Type::lane(ScalarType::F16)),
];

/// Every operand slot of an instruction, mutable (Pure: only the slots within the arity).
fn operands(kind: &mut InstKind) -> Vec<&mut Value> {
    use InstKind::*;
    match kind {
        Const(_) | LaneId | ReadReg(_) => vec![],
        Splat(v) | MaskFromBits(v) | Ballot(v) => vec![v],
        Pure { op, args, .. } => args.iter_mut().take(op.arity()).collect(),
        WriteReg { value, mask, .. } => std::iter::once(value).chain(mask.as_mut()).collect(),
        ReadRegIndexed { index, .. } => vec![index],
        WriteRegIndexed {
            index, value, mask, ..
        } => vec![index, value]
            .into_iter()
            .chain(mask.as_mut())
            .collect(),
        Load { addr, mask, .. } => std::iter::once(addr).chain(mask.as_mut()).collect(),
        Store {
            addr, value, mask, ..
        } => vec![addr, value].into_iter().chain(mask.as_mut()).collect(),
        Atomic {
            addr,
            data,
            cmp,
            mask,
            ..
        } => vec![addr, data]
            .into_iter()
            .chain(cmp.as_mut())
            .chain(mask.as_mut())
            .collect(),
        LoadFormat {
            format, addr, mask, ..
        } => format_code(format)
            .into_iter()
            .chain([addr])
            .chain(mask.as_mut())
            .collect(),
        StoreFormat {
            format,
            addr,
            data,
            count,
            mask,
            ..
        } => format_code(format)
            .into_iter()
            .chain([addr])
            .chain(data.iter_mut().take(*count as usize))
            .chain(mask.as_mut())
            .collect(),
        ReadLane { value, lane } => vec![value, lane],
        Shuffle { value, src } => vec![value, src],
    }
}

fn format_code(f: &mut FormatSrc) -> Option<&mut Value> {
    match f {
        FormatSrc::Dynamic(v) => Some(v),
        FormatSrc::Static(_) => None,
    }
}

/// One damage of kind `what`, steered by the random numbers `x` and `y`.
fn damage(f: &mut Function, what: u8, x: u32, y: u32) {
    let nb = f.blocks.len();
    if nb == 0 {
        return;
    }
    let bi = x as usize % nb;
    let n = f.blocks[bi].insts.len();
    let ops = all_ops();
    let block = &mut f.blocks[bi];
    let inst = if n == 0 { None } else { Some(y as usize % n) };
    match (what, inst) {
        (0, Some(i)) => {
            let mut slots = operands(&mut block.insts[i].kind);
            if !slots.is_empty() {
                let k = x as usize % slots.len();
                *slots[k] = Value(y % (n as u32 + 3));
            }
        }
        (1, Some(i)) => block.insts[i].ty = TYPES[x as usize % TYPES.len()],
        (2, Some(i)) => block.insts[i].kind = InstKind::Const(u64::from(x) << (y % 40)),
        (3, Some(i)) => match &mut block.insts[i].kind {
            InstKind::ReadReg(r) | InstKind::WriteReg { reg: r, .. } => {
                *r = Reg::new(FileId((x % 4) as u16), y % 20);
            }
            InstKind::ReadRegIndexed { file, base, .. }
            | InstKind::WriteRegIndexed { file, base, .. } => {
                *file = FileId((x % 4) as u16);
                *base = y % 20;
            }
            InstKind::Load { space, width, .. }
            | InstKind::Store { space, width, .. }
            | InstKind::Atomic { space, width, .. } => {
                *space = [MemSpace::Global, MemSpace::Lds, MemSpace::Private][x as usize % 3];
                *width =
                    [MemWidth::B8, MemWidth::B16, MemWidth::B32, MemWidth::B64][y as usize % 4];
            }
            InstKind::Pure { op, mode, args } => {
                *op = ops[x as usize % ops.len()];
                mode.flush_in = y & 1 != 0;
                // Slots past the (new) arity hold the filler, as the text form requires.
                for a in args.iter_mut().skip(op.arity()) {
                    *a = Value(u32::MAX);
                }
            }
            _ => {}
        },
        (4, _) => {
            block.term = match x % 6 {
                0 => Terminator::Jump(Block(y % (nb as u32 + 2))),
                1 => Terminator::Barrier(Block(y % (nb as u32 + 2))),
                2 => Terminator::Branch {
                    cond: Value(y % (n as u32 + 2)),
                    then_to: Block(0),
                    else_to: Block(y % 3),
                },
                3 => Terminator::JumpIndirect(Value(y % (n as u32 + 2))),
                4 => Terminator::Trap(TrapKind::Explicit(format!("t\u{7}\"{y}"))),
                _ => Terminator::Return,
            }
        }
        (5, _) => {
            let files = &mut f.layout.files;
            let k = y as usize % files.len().max(1);
            match x % 4 {
                0 => f.layout.wave_size = y % 80,
                1 if k < files.len() => files[k].cells = x % 20,
                2 if k < files.len() => {
                    files[k].name = ["s", "v", "c", "", "x y"][x as usize % 5].to_string()
                }
                _ => files.truncate(k),
            }
        }
        (6, Some(i)) => {
            let j = x as usize % n;
            block.insts.swap(i, j);
        }
        (7, Some(i)) => {
            block.insts.remove(i);
        }
        (8, _) => block.guest_pc = Some(0x1000 + 0x400 * u64::from(x % 4)),
        (9, _) if x.is_multiple_of(8) => f.blocks.clear(),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn damaged_functions_never_panic(
        seed in 0u64..300,
        damages in vec((0u8..10, any::<u32>(), any::<u32>()), 1..5),
    ) {
        let mut f = generate(seed, &options());
        for (what, x, y) in damages {
            damage(&mut f, what, x, y);
        }
        let verdict = verify(&f);
        let text = print(&f);
        if verdict.is_ok() {
            prop_assert_eq!(parse(&text), Ok(f), "accepted but does not round trip:\n{}", text);
        }
    }
}

/// Damage is actually detected most of the time (the property above is not vacuous).
#[test]
fn most_damage_is_rejected() {
    let mut rejected = 0;
    for seed in 0..200u64 {
        let mut f = generate(seed, &options());
        let Some(bi) = f.blocks.iter().position(|b| b.insts.len() > 3) else {
            continue;
        };
        // Make the last instruction use itself.
        let last = f.blocks[bi].insts.len() - 1;
        f.blocks[bi].insts[last].kind = InstKind::Splat(Value(last as u32));
        rejected += usize::from(verify(&f).is_err());
    }
    assert!(rejected > 150, "only {rejected} self-references rejected");
}
