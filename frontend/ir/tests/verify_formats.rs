//! Verifier rules of `load_format` and `store_format`, one violation at a time (the closest
//! valid variant is accepted, so each rejection is about the rule).

use wavejit_ir::text::parse;
use wavejit_ir::verify::{verify, Location};
use wavejit_ir::Block;

const HEAD: &str = "  %0 = read s[0] : i64
  %1 = read v[0] : lane i64
  %2 = read s[2] : i32
  %3 = read v[2] : lane i32
  %4 = read s[4] : i64
  %5 = mask_from_bits %4 : lane i1
  %6 = trunc %3 : lane i16
";

fn check(body: &str) -> Result<(), String> {
    let src = format!(
        "function \"t\" wave 64 {{ uniform s[16], lane v[8] }}\nblock0:\n{HEAD}{body}\n  return\n"
    );
    let f = parse(&src).unwrap_or_else(|e| panic!("does not parse: {e}\n{src}"));
    verify(&f).map_err(|e| {
        assert_eq!(e.loc, Location::Inst(Block(0), 7), "{e}");
        e.msg
    })
}

fn rejects(body: &str, needle: &str) {
    match check(body) {
        Ok(()) => panic!("accepted, expected {needle:?}: {body}"),
        Err(m) => assert!(m.contains(needle), "{m:?} lacks {needle:?}"),
    }
}

#[test]
fn load_format_rules() {
    check("  %7 = load_format.global.c3 %2, %1, mask %5 : lane i32").unwrap();
    check("  %7 = load_format.global.c0 fmt.16.float.xyzw, %0 : i16").unwrap();
    rejects(
        "  %7 = load_format.global.c0 %4, %1 : lane i32",
        "format code",
    );
    rejects(
        "  %7 = load_format.global.c0 %3, %1 : lane i32",
        "format code",
    );
    rejects(
        "  %7 = load_format.global.c0 %2, %1 : lane f32",
        "i32 or i16",
    );
    rejects(
        "  %7 = load_format.global.c0 %2, %1 : i32",
        "must be lane like the address",
    );
    rejects(
        "  %7 = load_format.global.c0 %2, %3 : lane i32",
        "must be i64",
    );
    rejects(
        "  %7 = load_format.global.c0 %2, %0, mask %5 : i32",
        "no mask",
    );
}

#[test]
fn store_format_rules() {
    check("  store_format.global %2, %1, %3, %3, %3, %3, mask %5").unwrap();
    check("  store_format.global fmt.16_16.float.xyzw, %0, %6").unwrap();
    rejects(
        "  store_format.global %2, %1, %3, %6",
        "is not i32 like the first",
    );
    rejects("  store_format.global %2, %1, %0", "i32 or i16");
    rejects("  store_format.global %4, %1, %3", "format code");
    rejects("  store_format.lds %2, %1, %3", "must be i32");
}

#[test]
fn store_format_text_takes_one_to_four_components() {
    let src = |body: &str| {
        format!("function \"t\" wave 64 {{ uniform s[16], lane v[8] }}\nblock0:\n{HEAD}{body}\n  return\n")
    };
    assert!(parse(&src("  store_format.global %2, %1, %3, %3, %3, %3, %3")).is_err());
    assert!(parse(&src("  store_format.global %2, %1")).is_err());
    assert!(parse(&src("  store_format.global fmt.8.unorm.xyz, %1, %3")).is_err());
    assert!(parse(&src("  %7 = load_format.global.c4 %2, %1 : lane i32")).is_err());
}
