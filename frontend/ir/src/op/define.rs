//! The `ops!` macro, which turns the rows of the [op table](super::table) (row syntax there)
//! into [`Op`](super::Op) and the per-op facts every other module asks for. Nothing here
//! names an op: a new op is a new row in the table (plus its per-lane result in
//! [`crate::semantics::eval`]).
//!
//! From the rows come: the enum (with each row's docs), [`Op::BASE`](super::Op::BASE) (every
//! variant once, with its first parameter values), `Op::ordinal`, `Op::name`,
//! `Op::from_name`, `Op::arity`, `Op::sig` (hence `Op::check`), `Op::uses_float_mode` and
//! `Op::visit_params` (hence the text form's parameters and [`crate::text::all_ops`]).

/// See the [module docs](self) and the [op table](super::table).
macro_rules! ops {
    ($(
        $(#[$doc:meta])*
        $V:ident $(( $($pn:ident: $p:ty),+ ))? $({ $flag:ident: bool })?
            = $name:literal, $arity:tt, $sig:ident, $mode:tt;
    )*) => {
        /// A pure operation: one row of the [op table](crate::op::table) each (its docs give
        /// the operands and result; the row's [`Sig`] is the typing rule). `T` is the result
        /// type, `F` a float type, `I` an integer type (`i1` to `i64` unless noted).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Op {
            $( $(#[$doc])* $V $(( $($p),+ ))? $({ $flag: bool })?, )*
        }

        /// The variants of [`Op`] without parameters, numbering them in table order.
        #[derive(Clone, Copy)]
        enum Ordinal {
            $( $V, )*
        }

        impl Op {
            /// Every variant once, in table order, with its first parameter values (each
            /// [`Choice`](crate::op::Choice)'s first value, flags off, `fexcept` of `fadd`).
            pub const BASE: [Op; [$(stringify!($V)),*].len()] = [$(
                Op::$V $(( $(<$p as $crate::op::param::Param>::FIRST),+ ))? $({ $flag: false })?
            ),*];

            /// The position of `self`'s variant in [`Op::BASE`].
            pub fn ordinal(self) -> usize {
                match self {
                    $( Op::$V { .. } => Ordinal::$V as usize, )*
                }
            }

            /// The op's name in the text form (its parameters are written after it).
            pub fn name(self) -> &'static str {
                match self {
                    $( Op::$V { .. } => $name, )*
                }
            }

            /// The op named `name` (a base name: `fmin`, not `fmin.ieee`), in its base form.
            pub fn from_name(name: &str) -> Option<Op> {
                Op::BASE.into_iter().find(|op| op.name() == name)
            }

            /// Number of operands.
            pub fn arity(self) -> usize {
                let op = self;
                match self {
                    $( Op::$V { .. } => ops!(@arity op, $arity), )*
                }
            }

            /// The op's typing rule.
            pub fn sig(self) -> Sig {
                match self {
                    $( Op::$V { .. } => Sig::$sig, )*
                }
            }

            /// Whether the op reads its [`FloatMode`](crate::FloatMode) (float arithmetic, conversions to
            /// float).
            pub fn uses_float_mode(self) -> bool {
                match self {
                    $( Op::$V { .. } => ops!(@mode $mode), )*
                }
            }

            /// Hands each parameter of the op, in its fixed order, to `v` (which may change
            /// it).
            pub fn visit_params<V: ParamVisitor>(&mut self, v: &mut V) -> Result<(), V::Error> {
                match self {
                    $(
                        Op::$V $(( $($pn),+ ))? $({ $flag })? => {
                            $( $( $crate::op::param::Param::visit($pn, v)?; )+ )?
                            $( v.flag(stringify!($flag), $flag)?; )?
                            Ok(())
                        }
                    )*
                }
            }
        }
    };
    (@arity $op:ident, reported) => {
        $op.reported().map_or(0, |k| k.op().arity())
    };
    (@arity $op:ident, $n:literal) => {
        $n
    };
    (@mode mode) => {
        true
    };
    (@mode -) => {
        false
    };
}

pub(super) use ops;
