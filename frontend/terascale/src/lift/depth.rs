//! Static stack depth: which stack checks a CF program can never fail.
//!
//! The branch/loop/call stack (see `cf`) of structured code has the same shape on every
//! path to a CF instruction: the frames' kinds, their subentry counts and return addresses
//! depend on the CF program only, never on lane data (a lane test only picks which path
//! runs). The lifter carries that shape along as a [`Shadow`] while it emits a CF
//! instruction, applying to it exactly the stack operations it emits IR for (push, pop,
//! the loop exit, the LOOP_BREAK unwind, RETURN), and omits an overflow or underflow check
//! when the shadow proves it cannot fail. Each push and pop then stays in its block instead
//! of splitting it around a branch to a trap.
//!
//! # Invariants
//! - A CF instruction is lifted with the join of the shadows of every edge that reaches it
//!   (jumps, branches, fall-through, the prologue, JUMPTABLE entries and the return sites a
//!   RETURN can reach). Paths that disagree, recursion, and a RETURN whose frame is not
//!   known make it [`Shadow::Unknown`]: every check there stays.
//! - [`super::lift`] iterates to a fixed point: the function it returns was lifted with
//!   states that equal the join of all edges of that same lift, so an omitted check is
//!   omitted only where every path agrees. An instruction no edge reaches is lifted as
//!   [`Shadow::Dead`] and keeps its checks. A program that needs more rounds than the lifter
//!   allows is lifted with every state unknown ([`Flow::unknown`]): all checks stay.
//! - A check the shadow shows to fail on every path is kept (it traps as before), and the
//!   code after it is [`Shadow::Dead`]: it records nothing.
//! - The shadow models only what the checks read (`Sp`, `Sub`, `LoopSp`, the frames'
//!   `SubBefore`, `Kind`, `LoopSp` and return address); a read of a frame cell the model
//!   does not hold (the loop frame above the stack top) makes it `Unknown`.
use super::state::STACK_SUBENTRIES;
use std::collections::HashMap;

/// A CF instruction: of the kernel or of its fetch subroutine, by CF address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Node {
    pub in_fs: bool,
    pub addr: u32,
}

/// The kind of frame a push makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pushed {
    Push,
    Loop,
    /// A call frame returning to the CF instruction.
    Call(Node),
}

/// What a stack frame holds, as far as the checks are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Saved {
    Push,
    /// The enclosing loop's LoopSp.
    Loop {
        loop_sp: u32,
    },
    /// The CF instruction RETURN continues at.
    Call {
        ret: Node,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frame {
    saved: Saved,
    sub_before: u32,
}

/// The stack's shape at a point of a path: `Sp` is `frames.len()`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Depth {
    frames: Vec<Frame>,
    sub: u32,
    loop_sp: u32,
}

/// The stack shape at a point of the program, over every path reaching it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shadow {
    /// No path reaches it (or every path has trapped).
    Dead,
    Known(Depth),
    /// Paths disagree, or the shape is past what the model follows.
    Unknown,
}

impl Shadow {
    /// The empty stack of a wave's start.
    pub fn start() -> Shadow {
        Shadow::Known(Depth::default())
    }

    pub fn join(&self, other: &Shadow) -> Shadow {
        match (self, other) {
            (Shadow::Dead, s) | (s, Shadow::Dead) => s.clone(),
            (Shadow::Known(a), Shadow::Known(b)) if a == b => self.clone(),
            _ => Shadow::Unknown,
        }
    }

    /// A push of `cost` subentries: whether its overflow check is needed. Records the frame
    /// when the push is proven to fit.
    pub fn push(&mut self, pushed: Pushed, cost: u32) -> bool {
        let Shadow::Known(d) = self else {
            return true;
        };
        if d.sub + cost > STACK_SUBENTRIES {
            *self = Shadow::Dead;
            return true;
        }
        let saved = match pushed {
            Pushed::Push => Saved::Push,
            Pushed::Loop => Saved::Loop { loop_sp: d.loop_sp },
            Pushed::Call(ret) => Saved::Call { ret },
        };
        d.frames.push(Frame {
            saved,
            sub_before: d.sub,
        });
        d.sub += cost;
        false
    }

    /// LOOP_START after its push: the innermost loop's frame is the top.
    pub fn enter_loop(&mut self) {
        if let Shadow::Known(d) = self {
            d.loop_sp = d.frames.len() as u32;
        }
    }

    /// Reading the frame below `Sp` (or below `LoopSp` if `loop_sp`): whether the check
    /// that the depth is not 0 is needed.
    pub fn below_top(&mut self, loop_sp: bool) -> bool {
        let Shadow::Known(d) = self else {
            return true;
        };
        let depth = if loop_sp {
            d.loop_sp
        } else {
            d.frames.len() as u32
        };
        if depth == 0 {
            *self = Shadow::Dead;
            return true;
        }
        false
    }

    /// Sp becomes `sp` and the frame there (the old top) is restored: `Sub`, and the
    /// enclosing loop's `LoopSp` for a loop frame. Returns the frame's return address.
    fn restore(&mut self, sp: u32) -> Option<Node> {
        let Shadow::Known(d) = self else {
            return None;
        };
        let Some(&f) = d.frames.get(sp as usize) else {
            *self = Shadow::Unknown;
            return None;
        };
        d.frames.truncate(sp as usize);
        d.sub = f.sub_before;
        match f.saved {
            Saved::Loop { loop_sp } => {
                d.loop_sp = loop_sp;
                None
            }
            Saved::Call { ret } => Some(ret),
            Saved::Push => None,
        }
    }

    /// POP of one frame (after [`Self::below_top`]).
    pub fn pop(&mut self) {
        if let Shadow::Known(d) = self {
            let sp = d.frames.len() as u32 - 1;
            self.restore(sp);
        }
    }

    /// The exit of LOOP_END (after `below_top(true)`): back to below the loop's frame.
    pub fn leave_loop(&mut self) {
        if let Shadow::Known(d) = self {
            let sp = d.loop_sp - 1;
            self.restore(sp);
        }
    }

    /// The LOOP_BREAK/LOOP_CONTINUE jump (after `below_top(true)`): Sp = LoopSp, Sub = the
    /// loop frame's SubBefore + 4.
    pub fn unwind_to_loop(&mut self) {
        let Shadow::Known(d) = self else {
            return;
        };
        let lsp = d.loop_sp as usize;
        match d.frames.get(lsp - 1) {
            Some(f) => {
                d.sub = f.sub_before + 4;
                d.frames.truncate(lsp);
            }
            None => *self = Shadow::Unknown,
        }
    }

    /// RETURN's check that the top frame is a call frame (after `below_top(false)`):
    /// whether it is needed.
    pub fn top_is_call_check(&mut self) -> bool {
        let Shadow::Known(d) = self else {
            return true;
        };
        match d.frames.last() {
            Some(Frame {
                saved: Saved::Call { .. },
                ..
            }) => false,
            _ => {
                *self = Shadow::Dead;
                true
            }
        }
    }

    /// RETURN's pop of its call frame (after its checks): where it continues, if known.
    pub fn ret(&mut self) -> Option<Node> {
        match self {
            Shadow::Known(d) => {
                let sp = d.frames.len() as u32 - 1;
                self.restore(sp)
            }
            _ => None,
        }
    }
}

/// The shadows of a lift: the state each CF instruction was lifted with and the join of the
/// edges reaching each.
#[derive(Default)]
pub(crate) struct Flow {
    /// States from the previous iterations (empty on the first).
    pub entries: HashMap<Node, Shadow>,
    /// The join of the edges recorded so far in this lift.
    pub reached: HashMap<Node, Shadow>,
    /// The state each instruction was lifted with.
    pub lifted: HashMap<Node, Shadow>,
    /// Every CALL's return site.
    pub ret_sites: Vec<Node>,
    /// Whether a RETURN whose frame is not known was lifted.
    pub unknown_return: bool,
    /// Lift every CF instruction as [`Shadow::Unknown`] ([`Flow::unknown`]).
    all_unknown: bool,
}

impl Flow {
    /// Starts a new lift from the states of the previous one.
    pub fn next(entries: HashMap<Node, Shadow>) -> Flow {
        Flow {
            entries,
            ..Flow::default()
        }
    }

    fn get(map: &HashMap<Node, Shadow>, n: Node) -> Shadow {
        map.get(&n).cloned().unwrap_or(Shadow::Dead)
    }

    /// An edge to `n` with the stack `s`.
    pub fn reach(&mut self, n: Node, s: &Shadow) {
        let j = Self::get(&self.reached, n).join(s);
        self.reached.insert(n, j);
    }

    /// A lift that takes every state as unknown (every check kept; no fixed point needed).
    pub fn unknown() -> Flow {
        Flow {
            all_unknown: true,
            ..Flow::default()
        }
    }

    /// The state to lift `n` with (recorded as such).
    pub fn enter(&mut self, n: Node) -> Shadow {
        if self.all_unknown {
            return Shadow::Unknown;
        }
        let s = Self::get(&self.entries, n).join(&Self::get(&self.reached, n));
        self.lifted.insert(n, s.clone());
        s
    }

    /// After the lift: the joined states, and whether the lift used exactly them.
    pub fn finish(mut self) -> (HashMap<Node, Shadow>, bool) {
        if self.unknown_return {
            for n in std::mem::take(&mut self.ret_sites) {
                self.reach(n, &Shadow::Unknown);
            }
        }
        let mut all = self.entries;
        for (n, s) in self.reached {
            let j = Self::get(&all, n).join(&s);
            all.insert(n, j);
        }
        let stable = all.iter().all(|(n, s)| *s == Self::get(&self.lifted, *n))
            && self.lifted.iter().all(|(n, s)| *s == Self::get(&all, *n));
        (all, stable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: Node = Node {
        in_fs: false,
        addr: 3,
    };

    #[test]
    fn shapes_join_push_and_pop() {
        let mut s = Shadow::start();
        assert!(!s.push(Pushed::Loop, 4));
        s.enter_loop();
        assert!(!s.push(Pushed::Push, 1));
        assert!(!s.push(Pushed::Call(N), 1));
        // Known shapes join to themselves, differing ones to unknown; dead joins to anything.
        let other = Shadow::start();
        assert_eq!(s.join(&s), s);
        assert_eq!(s.join(&other), Shadow::Unknown);
        assert_eq!(Shadow::Dead.join(&s), s);
        // RETURN finds the call frame and its return site; then the PUSH frame is on top.
        let mut r = s.clone();
        assert!(!r.below_top(false));
        assert!(!r.top_is_call_check());
        assert_eq!(r.ret(), Some(N));
        assert!(
            r.top_is_call_check(),
            "a PUSH frame on top fails RETURN's check"
        );
        assert_eq!(r, Shadow::Dead);
        // LOOP_BREAK's unwind drops the frames above the loop's; the loop exit empties it.
        let mut u = s.clone();
        assert!(!u.below_top(true));
        u.unwind_to_loop();
        u.leave_loop();
        assert_eq!(u, Shadow::start());
        assert!(
            u.below_top(false),
            "popping the empty stack needs its check"
        );
        assert_eq!(u, Shadow::Dead);
    }

    #[test]
    fn a_push_past_the_capacity_keeps_its_check() {
        let mut s = Shadow::start();
        for _ in 0..STACK_SUBENTRIES / 4 {
            assert!(!s.push(Pushed::Push, 4));
        }
        assert!(s.push(Pushed::Push, 1));
        assert_eq!(s, Shadow::Dead);
    }

    #[test]
    fn the_unknown_flow_keeps_every_check() {
        let mut f = Flow::unknown();
        f.reach(N, &Shadow::start());
        assert_eq!(f.enter(N), Shadow::Unknown);
        let mut s = f.enter(N);
        assert!(s.push(Pushed::Push, 1));
        assert!(s.below_top(false));
        assert!(s.below_top(true));
        assert!(s.top_is_call_check());
    }
}
