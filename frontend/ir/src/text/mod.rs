//! The text form of the IR (`.wir`): one instruction per line, in the spirit of Cranelift's
//! `.clif`. [`print()`] (or `Display` for [`Function`](crate::Function)) writes it, [`parse`]
//! reads it, and `parse(&print(f)) == Ok(f)` for every function [`crate::verify::verify`]
//! accepts (see "Exactness" below for the one normalisation).
//!
//! ```text
//! ; a comment runs to the end of the line
//! function "saxpy" wave 64 { uniform s[16], lane v[8] }
//!
//! block0 @0x100 insts=3:
//!   %0 = read s[4] : f32 @0x100
//!   %1 = read v[0] : lane f32
//!   %2 = fmul.flush %0, %1 : lane f32 @0x104
//!   %3 = read s[0] : i64
//!   %4 = mask_from_bits %3 : lane i1
//!   write v[1], %2, mask %4
//!   %6 = const 1.5 : f32           ; decimal: a value of the type
//!   %7 = const 0x7fc00001 : f32    ; hex: raw bits (NaN payloads, f16, exact ints)
//!   %8 = fcmp.une %6, %7 : i1
//!   br %8, block1, block0
//! ```
//!
//! # Grammar
//! Tokens are separated by blanks; a newline ends an instruction; `;` starts a comment.
//! ```text
//! function   := 'function' STRING 'wave' N '{' [file (',' file)*] '}' NL block*
//! file       := ('uniform' | 'lane') NAME '[' CELLS ']' ['written_first']
//! block      := 'block'K ['@' PC64] ['insts' '=' N] ':' NL inst* term NL
//! inst       := ['%'I '='] body [':' type] ['@' PC32] NL
//! type       := ['lane'] ('i1'|'i8'|'i16'|'i32'|'i64'|'f16'|'f32'|'f64')
//! body       := 'const' LITERAL
//!             | 'splat' v | 'lane_id' | 'mask_from_bits' v | 'ballot' v
//!             | 'read_lane' v ',' v | 'shuffle' v ',' v
//!             | 'read' reg | 'write' reg ',' v [',' 'mask' v]
//!             | 'load.' SPACE '.' ('u'|'s') BITS v [',' 'mask' v]
//!             | 'store.' SPACE '.b' BITS v ',' v [',' 'mask' v]
//!             | 'atomic.' AOP '.' SPACE '.b' BITS v ',' v [',' 'cmp' v] [',' 'mask' v]
//!             | 'load_format.' SPACE '.c' COMP format ',' v [',' 'mask' v]
//!             | 'store_format.' SPACE format ',' v (',' v){1,4} [',' 'mask' v]
//!             | OP ('.' PARAM)* ('.' MODE)* [v (',' v)*]
//! format     := 'fmt.' DATA '.' NUM '.' SWIZZLE    ; static (crate::format names)
//!             | v                                ; dynamic: a uniform i32 format code
//!               DATA: invalid 8 16 8_8 32 16_16 10_11_11 11_11_10 10_10_10_2 2_10_10_10
//!                     8_8_8_8 32_32 16_16_16_16 32_32_32 32_32_32_32
//!               NUM: unorm snorm uscaled sscaled uint sint snorm_ogl float
//!               SWIZZLE: four of x y z w 0 1 (register components x, y, z, w)
//!               COMP: 0 .. 3
//! reg        := NAME '[' INDEX ']'              ; a register
//!             | NAME '[' BASE '+' v ']'         ; indexed: register BASE + v
//! term       := 'jump' block | 'br' v ',' block ',' block | 'jump_indirect' v
//!             | 'barrier' block | 'return'
//!             | 'trap' ('bad_jump' | 'stack_overflow' | 'stack_underflow' | STRING)
//! SPACE      := 'global' | 'lds' | 'private'          BITS := 8 | 16 | 32 | 64
//! AOP        := add sub xchg cmpxchg umin umax smin smax and or xor inc dec fadd fmin fmax
//!               rsub mskor wrap fcmpxchg condxchg32   (`cmp` required by cmpxchg, mskor,
//!               wrap and fcmpxchg, refused by the others)
//! OP         := the op's [`Op::name`](crate::Op::name), then its parameters in this order:
//!               icmp: eq ne ult ule ugt uge slt sle sgt sge
//!               fcmp: eq ne lt le gt ge one ord uno ueq une ult ule ugt uge
//!               fmin fmax fmed3: ieee | nonieee | legacy          (required)
//!               fsqrt frcp frsq fexp2 flog2: ieee | clamped | ff | legacy   (required)
//!               fsin fcos: flavour as above, then radians | turns  (required)
//!               fclamp: optional dx10
//! MODE       := flush | flush_in | flush_out  (at most one; `flush` is both)
//!             | rtp | rtn | rtz | rne         (at most one; rne is the default, never printed)
//! ```
//! Numbers are decimal or `0x` hex. Blocks appear in order, `block0` first; instruction `I` of
//! a block is written `%I =` exactly when it has a result type, so an instruction without a
//! result (a write or store) leaves a gap in the numbering. An instruction without `@PC` has
//! the guest pc of the previous instruction of its block (the first: 0); the printer writes
//! `@PC` only where the pc changes. The terminator follows the same rule (its pc is the one a
//! fault of the terminator reports). `insts=` (guest instructions) defaults to 0.
//!
//! `const` literals: `0x...` is the raw bits (any type, never signed); a decimal literal is a
//! value of the instruction's type: an integer, negative ones in two's complement
//! (`const -1 : i32` is `0xffffffff`), or for float types a decimal float rounded to nearest
//! even (`f16` literals must be exact). The printer writes integers up to 0xffff in decimal,
//! everything else in hex, and adds the decimal value of a float constant as a comment.
//!
//! Strings (the function name, trap messages) use Rust's escapes: `\\ \" \' \n \r \t \0
//! \u{HEX}`.
//!
//! # Exactness
//! A `Pure` instruction's argument slots beyond its op's arity are not printed; the parser
//! fills them with `Value(u32::MAX)`, as [`crate::FunctionBuilder`] does. Round trips are exact
//! for every function whose unused slots hold that filler.

mod lexer;
pub(crate) mod names;
mod parser;
mod printer;
mod words;

pub use names::all_ops;
pub use parser::parse;
pub use printer::print;

/// A syntax error, at a 1-based line and column (in characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {msg}")]
pub struct ParseError {
    pub line: u32,
    pub col: u32,
    pub msg: String,
}
