//! x86-64 decoding: iced-x86 decodes each instruction once into an own compact [`Insn`]
//! record the executor and the timing model read; nothing downstream looks at iced's text.
//!
//! Registers are numbered as the hardware encodes them (0 = rax, 1 = rcx, 2 = rdx,
//! 3 = rbx, 4 = rsp, 5 = rbp, 6 = rsi, 7 = rdi, 8..15 = r8..r15).

use iced_x86::{
    ConditionCode, Decoder, DecoderOptions, Instruction, InstructionInfoFactory, OpAccess, OpKind, Register,
};

use crate::optable;
use crate::timing::{TimingClass, XReg};

pub use crate::insn::{Cond, Gpr, Insn, MemRef, Op, Operand, Seg, MAX_INSN_LEN};

/// Decodes instructions; reuses iced's register-usage analysis across calls.
pub struct X86Decoder {
    info: InstructionInfoFactory,
}

impl std::fmt::Debug for X86Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("X86Decoder")
    }
}

impl Default for X86Decoder {
    fn default() -> X86Decoder {
        X86Decoder::new()
    }
}

impl X86Decoder {
    /// A decoder.
    pub fn new() -> X86Decoder {
        X86Decoder { info: InstructionInfoFactory::new() }
    }

    /// Decodes every instruction of `bytes` placed at `addr`, linearly.
    pub fn decode_all(&mut self, addr: u64, bytes: &[u8]) -> Vec<Insn> {
        let mut out = Vec::new();
        let mut off = 0usize;
        while let Some(rest) = bytes.get(off..).filter(|r| !r.is_empty()) {
            let insn = self.decode_one(addr.wrapping_add(off as u64), rest);
            off += usize::from(insn.len.max(1));
            out.push(insn);
        }
        out
    }

    /// Decodes the instruction at the start of `bytes` (placed at `addr`).
    pub fn decode_one(&mut self, addr: u64, bytes: &[u8]) -> Insn {
        let mut raw = [0u8; MAX_INSN_LEN];
        let n = bytes.len().min(MAX_INSN_LEN);
        if let (Some(dst), Some(src)) = (raw.get_mut(..n), bytes.get(..n)) {
            dst.copy_from_slice(src);
        }
        let decoded = Decoder::try_with_ip(64, bytes.get(..n).unwrap_or(&[]), addr, DecoderOptions::NONE)
            .map(|mut d| d.decode())
            .ok()
            .filter(|i| !i.is_invalid());
        let Some(i) = decoded else {
            return Insn {
                addr,
                len: 1,
                op: Op::Unsupported,
                size: 0,
                ops: [Operand::None; 3],
                cond: None,
                lock: false,
                class: TimingClass::Nop,
                srcs: Vec::new(),
                dsts: Vec::new(),
                bytes: raw,
            };
        };
        let row = optable::lookup(i.mnemonic(), i.op_count());
        let ops = [operand(&i, 0), operand(&i, 1), operand(&i, 2)];
        let op = row.map_or(Op::Unsupported, |r| r.op);
        let size = row.map_or(0, |r| r.size.size(&ops));
        let (srcs, dsts) = self.reg_use(&i, row.is_none_or(|r| r.merges));
        let mut insn = Insn {
            addr,
            len: i.len() as u8,
            op,
            size,
            ops,
            cond: cond(i.condition_code()),
            lock: i.has_lock_prefix(),
            class: TimingClass::Nop,
            srcs,
            dsts,
            bytes: raw,
        };
        insn.class = row.map_or(TimingClass::Nop, |r| r.class.class(&insn));
        insn
    }

    /// Registers and flags read and written; `merges`: a destination narrower than 32 bits is
    /// also read (see [`optable::Row::merges`]).
    fn reg_use(&mut self, i: &Instruction, merges: bool) -> (Vec<XReg>, Vec<XReg>) {
        let (mut srcs, mut dsts) = (Vec::new(), Vec::new());
        let info = self.info.info(i);
        for u in info.used_registers() {
            let Some(r) = gpr(u.register()) else { continue };
            let x = XReg::Gpr(r.num);
            let (read, write) = match u.access() {
                OpAccess::Read | OpAccess::CondRead => (true, false),
                OpAccess::Write | OpAccess::CondWrite => (false, true),
                OpAccess::ReadWrite | OpAccess::ReadCondWrite => (true, true),
                _ => (false, false),
            };
            // A partial-width write merges with the old value, so it also reads it.
            let merge = write && (r.size < 4) && merges;
            if (read || merge) && !srcs.contains(&x) {
                srcs.push(x);
            }
            if write && !dsts.contains(&x) {
                dsts.push(x);
            }
        }
        if i.rflags_read() != 0 {
            srcs.push(XReg::Flags);
        }
        if i.rflags_modified() != 0 {
            dsts.push(XReg::Flags);
        }
        (srcs, dsts)
    }
}

/// A general register by iced name, with its width.
pub fn gpr(r: Register) -> Option<Gpr> {
    let size = r.size() as u8;
    if !r.is_gpr() {
        return None;
    }
    let (num, high8) = match r {
        Register::AH => (0, true),
        Register::CH => (1, true),
        Register::DH => (2, true),
        Register::BH => (3, true),
        _ => (r.full_register().number() as u8, false),
    };
    Some(Gpr { num, size, high8 })
}

fn segment(r: Register) -> Seg {
    match r {
        Register::FS => Seg::Fs,
        Register::GS => Seg::Gs,
        _ => Seg::Flat,
    }
}

fn operand(i: &Instruction, n: u32) -> Operand {
    if n >= i.op_count() {
        return Operand::None;
    }
    match i.op_kind(n) {
        OpKind::Register => gpr(i.op_register(n)).map_or(Operand::None, Operand::Reg),
        OpKind::NearBranch16 | OpKind::NearBranch32 | OpKind::NearBranch64 => {
            Operand::Imm(i.near_branch_target() as i64)
        }
        OpKind::Immediate8
        | OpKind::Immediate8_2nd
        | OpKind::Immediate16
        | OpKind::Immediate32
        | OpKind::Immediate64
        | OpKind::Immediate8to16
        | OpKind::Immediate8to32
        | OpKind::Immediate8to64
        | OpKind::Immediate32to64 => Operand::Imm(i.try_immediate(n).unwrap_or(0) as i64),
        OpKind::Memory => {
            let rip = i.is_ip_rel_memory_operand();
            Operand::Mem(MemRef {
                base: if rip { None } else { gpr(i.memory_base()).map(|g| g.num) },
                index: gpr(i.memory_index()).map(|g| g.num),
                scale: i.memory_index_scale() as u8,
                disp: if rip { i.ip_rel_memory_address() as i64 } else { i.memory_displacement64() as i64 },
                seg: segment(i.memory_segment()),
                size: i.memory_size().size() as u8,
            })
        }
        _ => Operand::None,
    }
}

fn cond(c: ConditionCode) -> Option<Cond> {
    use ConditionCode as C;
    Some(match c {
        C::o => Cond::O,
        C::no => Cond::No,
        C::b => Cond::B,
        C::ae => Cond::Ae,
        C::e => Cond::E,
        C::ne => Cond::Ne,
        C::be => Cond::Be,
        C::a => Cond::A,
        C::s => Cond::S,
        C::ns => Cond::Ns,
        C::p => Cond::P,
        C::np => Cond::Np,
        C::l => Cond::L,
        C::ge => Cond::Ge,
        C::le => Cond::Le,
        C::g => Cond::G,
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
