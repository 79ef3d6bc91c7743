//! Random valid programs and mutated llc programs: whatever the decoder accepts prints to
//! text that assembles back to the same bytes (`wavejit_isa::testkit::reencodes` with
//! "print, then assemble" as the encoder).
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wavejit_isa::testkit::{self, Case, Mutation, Mutator};
use wavejit_terascale::asm::assemble;
use wavejit_terascale::tables::{self, AluEnc, SlotRule};
use wavejit_terascale::{decode_program, print_program, AluOp, ChipClass};

#[path = "isa_vectors.rs"]
#[allow(dead_code)]
mod vectors;

const BARRIER: u32 = 1 << 31;

/// How many of `inputs` decode as `class`; each of those must print to text that assembles
/// back to its bytes.
fn read_back(name: &str, class: ChipClass, inputs: impl IntoIterator<Item = Case>) -> usize {
    testkit::reencodes(
        &format!("{class:?} {name}"),
        inputs,
        |b| decode_program(class, b),
        |p| {
            let text = print_program(p).join("\n");
            assemble(class, &text).map_err(|e| format!("{e}\n{text}"))
        },
    )
}

#[test]
fn mutated_vectors_read_back() {
    let all = vectors::vectors();
    let mut ok = 0;
    for (k, class) in ChipClass::ALL.into_iter().enumerate() {
        let (own, other): (Vec<_>, Vec<_>) = all.iter().partition(|f| f.chip.class() == class);
        let bytes = |fs: Vec<&vectors::Function>| -> Vec<Vec<u8>> {
            fs.into_iter().map(|f| f.bytes.clone()).collect()
        };
        let flips = |corpus, seed| {
            Mutator::new(corpus, seed)
                .with(&[Mutation::BitFlip])
                .steps(1..=3)
        };
        // Mostly a vector decoded as its own class, sometimes as the other one.
        let own = flips(bytes(own), 0x005e_eda5 + k as u64);
        let other = flips(bytes(other), 0x005e_eda5 + 2 + k as u64);
        ok += read_back(
            "mutated vectors",
            class,
            own.cases(600).chain(other.cases(150)),
        );
    }
    assert!(ok > 300, "mutations should often stay decodable ({ok})");
}

/// Source selects a random operand draws from: GPRs, kcache 0-3, the inline constants, PV,
/// PS, literal, LDS queues, unnamed selects.
const SELS: [u32; 14] = [
    0, 5, 127, 128, 191, 256, 319, 248, 249, 250, 252, 253, 254, 255,
];

/// One random ALU group of vector-slot ops (words, then literal words).
fn random_group(rng: &mut ChaCha8Rng, ops: &[(u16, AluEnc)]) -> Vec<u32> {
    let n = rng.gen_range(1..=4usize);
    let mut chans: Vec<u32> = (0..4).collect();
    while chans.len() > n {
        chans.remove(rng.gen_range(0..chans.len()));
    }
    let mut words = Vec::new();
    let mut literals = 0;
    for (k, &chan) in chans.iter().enumerate() {
        let (code, enc) = ops[rng.gen_range(0..ops.len())];
        let mut sel = || {
            let s = SELS[rng.gen_range(0..SELS.len())];
            if s == 0 {
                rng.gen_range(0..128)
            } else {
                s
            }
        };
        let (s0, s1, s2) = (sel(), sel(), sel());
        let c: [u32; 3] = rng.gen::<[u32; 3]>().map(|c| c & 3);
        let used: &[(u32, u32)] = match enc {
            AluEnc::Op2 => &[(s0, c[0]), (s1, c[1])],
            AluEnc::Op3 => &[(s0, c[0]), (s1, c[1]), (s2, c[2])],
        };
        for &(s, ch) in used {
            if s == 253 {
                literals = literals.max(if ch >= 2 { 2 } else { 1 });
            }
        }
        let last = ((k + 1 == n) as u32) << 31;
        let w0 = s0
            | (rng.gen::<u32>() & 1) << 9
            | c[0] << 10
            | (rng.gen::<u32>() & 1) << 12
            | s1 << 13
            | (rng.gen::<u32>() & 1) << 22
            | c[1] << 23
            | (rng.gen::<u32>() & 1) << 25
            | rng.gen_range(0..8) << 26
            | rng.gen_range(0..4) << 29
            | last;
        let common =
            rng.gen_range(0..8) << 18 | rng.gen_range(0..128) << 21 | (rng.gen::<u32>() & 1) << 28;
        let w1 = match enc {
            AluEnc::Op2 => rng.gen_range(0..128) | (code as u32) << 7 | common,
            AluEnc::Op3 => {
                s2 | (rng.gen::<u32>() & 1) << 9
                    | c[2] << 10
                    | (rng.gen::<u32>() & 1) << 12
                    | (code as u32) << 13
                    | common
            }
        } | chan << 29
            | (rng.gen::<u32>() & 1) << 31;
        words.extend([w0, w1]);
    }
    for _ in 0..literals * 2 {
        words.push(rng.gen());
    }
    words
}

/// A random program: CF ALU and TEX instructions running random clauses, random control-flow
/// words between them, the end, then the clauses (fetch clauses 16-byte aligned).
fn random_program(rng: &mut ChaCha8Rng, class: ChipClass) -> Vec<u32> {
    let ops: Vec<(u16, AluEnc)> = tables::alu_rows()
        .iter()
        .filter(|r| {
            matches!(r.slot_rule(class), SlotRule::Any | SlotRule::Vector)
                && r.op != AluOp::LDS_IDX_OP
        })
        .filter_map(|r| r.opcode(class).map(|c| (c, r.enc)))
        .collect();
    let n_alu = rng.gen_range(1..=3);
    let n_tex = rng.gen_range(0..=2);
    let n_flow = rng.gen_range(0..=3);
    let n_cf = n_alu + n_tex + n_flow + 1;
    let mut alu_clauses = Vec::new();
    for _ in 0..n_alu {
        let mut c = Vec::new();
        for _ in 0..rng.gen_range(1..=3) {
            c.extend(random_group(rng, &ops));
        }
        alu_clauses.push(c);
    }
    let fetch_codes: Vec<u32> = tables::vtx_rows()
        .iter()
        .chain(tables::tex_rows())
        .map(|r| r.opcode[class.index()] as u32)
        .chain(
            tables::mem_rd_rows()
                .iter()
                .map(|r| 2 | (r.opcode[class.index()] as u32) << 8),
        )
        .collect();
    let mut tex_clauses = Vec::new();
    for _ in 0..n_tex {
        let mut c = Vec::new();
        for _ in 0..rng.gen_range(1..=3) {
            let code = fetch_codes[rng.gen_range(0..fetch_codes.len())];
            let mask = if code & 0x1f == 2 { 0x71f } else { 0x1f };
            let f: [u32; 3] = rng.gen();
            c.extend([f[0] & !mask | code, f[1], f[2], 0]);
        }
        tex_clauses.push(c);
    }
    let mut cf = Vec::new();
    let mut body = Vec::new();
    let mut at = n_cf as u32;
    for c in &alu_clauses {
        let kc: u32 = rng.gen::<u32>() & 0xffc0_0000;
        let count = (c.len() / 2 - 1) as u32;
        let op = [8u32, 9, 10, 11][rng.gen_range(0..4)];
        cf.extend([
            at | kc,
            rng.gen_range(0..1u32 << 18)
                | count << 18
                | (rng.gen::<u32>() & 1) << 25
                | op << 26
                | BARRIER,
        ]);
        body.extend(c);
        at += c.len() as u32 / 2;
    }
    for c in &tex_clauses {
        if at % 2 == 1 {
            body.extend([0, 0]);
            at += 1;
        }
        let count = (c.len() / 4 - 1) as u32;
        cf.extend([at, count << 10 | 1 << 22 | BARRIER]);
        body.extend(c);
        at += c.len() as u32 / 2;
    }
    for _ in 0..n_flow {
        // JUMP / ELSE / POP / LOOP_START_DX10 / END_LOOP to a target inside the program.
        let op = [10u32, 13, 14, 6, 5][rng.gen_range(0..5)];
        let target = rng.gen_range(0..n_cf as u32);
        cf.extend([target, rng.gen_range(0..8) | op << 22 | BARRIER]);
    }
    cf.extend(match class {
        ChipClass::Cayman => [0, 32 << 22 | BARRIER],
        ChipClass::Evergreen => [0, 1 << 21 | BARRIER],
    });
    cf.extend(body);
    cf
}

#[test]
fn random_programs_read_back() {
    let mut ok = 0;
    for class in ChipClass::ALL {
        // One generator per program, so a failing program's origin regenerates it alone.
        let programs = (0..300u64).map(|round| {
            let seed = 0x00be_ef70 + 2 * round + class.index() as u64;
            let words = random_program(&mut ChaCha8Rng::seed_from_u64(seed), class);
            let b: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            Case::new(b, format!("random_program(seed {seed:#x}, {class:?})"))
        });
        ok += read_back("random programs", class, programs);
    }
    assert!(ok > 150, "random programs should often be valid ({ok})");
}
