//! Flag liveness per block (issue 17): the status flags a register form computes are dead when
//! a later record of the same block overwrites all of them before anything reads them and
//! before anything can stop the block (a fault, the executor, an exit). Such a record's handler
//! computes only its register result. Flags are architectural state wherever the block can
//! stop, so a block run only in part (a budget or `until_pc` stop inside it) computes every
//! flag: [`Rec::flags_dead`] holds only when the whole block runs.

use crate::decode::Op;
use crate::state::flags::{AF, CF, OF, PF, SF, STATUS, ZF};

use super::fast::Fast;
use super::Rec;

/// How a form uses the status flags: those it reads, those it writes, whether its handler can
/// skip computing them, and whether the block can stop at it (it may fault, or leave through
/// the executor).
struct FlagUse {
    reads: u64,
    writes: u64,
    skippable: bool,
    stops: bool,
}

impl Fast {
    fn flag_use(&self) -> FlagUse {
        let carry = |op: Op| if matches!(op, Op::Adc | Op::Sbb) { CF } else { 0 };
        let (reads, writes, skippable, stops) = match *self {
            // The executor may read any flag, fault or leave the block.
            Fast::Generic => (STATUS, 0, false, true),
            Fast::Nop | Fast::MovRR { .. } | Fast::MovRI { .. } | Fast::Lea { .. } | Fast::Extend { .. } => {
                (0, 0, false, false)
            }
            Fast::Jmp { .. } => (0, 0, false, false),
            Fast::Load { .. }
            | Fast::Store { .. }
            | Fast::Push { .. }
            | Fast::Pop { .. }
            | Fast::Call { .. }
            | Fast::Ret => (0, 0, false, true),
            Fast::Alu { op, .. } => (carry(op), STATUS, true, false),
            Fast::AluLoad { op, .. } | Fast::AluMem { op, .. } => (carry(op), STATUS, false, true),
            Fast::IncDec { .. } => (0, OF | SF | ZF | AF | PF, true, false),
            Fast::CmpNarrow { .. } => (0, STATUS, true, false),
            // Which flags a shift writes depends on its count: counted as writing none.
            Fast::ShiftImm { .. } => (0, 0, false, false),
            Fast::Cmov { .. } | Fast::Setcc { .. } | Fast::Jcc { .. } => (STATUS, 0, false, false),
        };
        FlagUse { reads, writes, skippable, stops }
    }
}

/// Marks the records of one block whose flags are dead (see the module doc), walking back from
/// its end, where every flag is live.
pub(crate) fn mark_dead_flags(recs: &mut [Rec]) {
    let mut live = STATUS;
    for rec in recs.iter_mut().rev() {
        let u = rec.fast.flag_use();
        rec.flags_dead = u.skippable && u.writes & live == 0;
        live = if u.stops { STATUS } else { (live & !u.writes) | u.reads };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::X86Decoder;

    /// The records of `code` (one instruction per entry), marked.
    fn marked(code: &[&[u8]]) -> Vec<bool> {
        let mut dec = X86Decoder::new();
        let mut addr = 0x1000;
        let mut recs: Vec<Rec> = code
            .iter()
            .map(|bytes| {
                let insn = dec.decode_one(addr, bytes);
                addr = insn.next();
                super::super::record(&insn, 0, None).1
            })
            .collect();
        mark_dead_flags(&mut recs);
        recs.iter().map(|r| r.flags_dead).collect()
    }

    #[test]
    fn flags_overwritten_before_any_reader_are_dead() {
        // The bench's ALU loop: add, add, xor, lea, sub, and, or, inc, dec, jnz. inc and dec
        // keep CF, so or's flags stay live (CF reaches the block's end); dec's feed jnz.
        let alu_loop: [&[u8]; 10] = [
            &[0x48, 0x01, 0xd0],
            &[0x48, 0x01, 0xca],
            &[0x48, 0x31, 0xc1],
            &[0x48, 0x8d, 0x34, 0x90],
            &[0x48, 0x29, 0xf1],
            &[0x48, 0x21, 0xca],
            &[0x48, 0x09, 0xf0],
            &[0x49, 0xff, 0xc0],
            &[0x48, 0xff, 0xcf],
            &[0x75, 0xe0],
        ];
        assert_eq!(marked(&alu_loop), [true, true, true, false, true, true, false, true, false, false]);
        // A load may fault: the flags before it are live; adc reads CF; the last writer is live.
        let load: [&[u8]; 4] = [&[0x48, 0x01, 0xd0], &[0x48, 0x8b, 0x03], &[0x48, 0x01, 0xca], &[0x48, 0x11, 0xc8]];
        assert_eq!(marked(&load), [false, false, false, false]);
        // cmp then sub: the cmp is dead; a cmovcc reads the sub's.
        let cmp: [&[u8]; 3] = [&[0x48, 0x39, 0xd0], &[0x48, 0x29, 0xd0], &[0x48, 0x0f, 0x44, 0xc1]];
        assert_eq!(marked(&cmp), [true, false, false]);
    }
}
