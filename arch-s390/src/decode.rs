//! s390x decoding: capstone (SystemZ, diet build) decodes each instruction once per image; the
//! operation comes from an own opcode table ([`crate::optable`]) and the operands from capstone's
//! detail fields (registers, immediates, base/index/displacement/length), never from its text.
//! Relative branch targets arrive from capstone as absolute addresses.

use capstone::arch::sysz::{ArchMode, SysZOperand};
use capstone::arch::{ArchOperand, BuildsCapstone};
use capstone::Capstone;

use crate::optable::{lookup, Op, Shape, Slot, Spec};
pub mod deps;

use crate::timing::Class;
use deps::{deps, Deps};

/// The longest s390x instruction.
pub const MAX_INSN_LEN: usize = 6;

/// A storage operand: base + index + displacement, with an SS operand's length in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemRef {
    /// Base register (none for r0).
    pub base: Option<u8>,
    /// Index register (none for r0).
    pub index: Option<u8>,
    /// Signed displacement.
    pub disp: i64,
    /// Length in bytes (SS formats), else 0.
    pub len: u16,
}

/// One decoded instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Insn {
    /// Address.
    pub addr: u64,
    /// Length in bytes (2, 4 or 6; 2 for undecodable bytes).
    pub len: u8,
    /// The bytes (first `len` valid).
    pub raw: [u8; MAX_INSN_LEN],
    /// Own mnemonic (the opcode table's), or "?" when unknown.
    pub name: &'static str,
    /// The opcode is in the table (an instruction outside it is invalid, not unsupported).
    pub known: bool,
    /// The operation.
    pub op: Op,
    /// Register operands in assembler order.
    pub regs: [u8; 4],
    /// Immediates in assembler order (branch targets absolute).
    pub imms: [i64; 4],
    /// Storage operands in assembler order.
    pub mems: [MemRef; 2],
    /// Branch / load-on-condition mask (15 when the instruction has none).
    pub mask: u8,
    /// In the own list of privileged instructions.
    pub privileged: bool,
    /// Timing class.
    pub class: Class,
    /// The opcode table's operand shape (empty when unsupported).
    pub shape: Shape,
    /// Registers and condition code read and written, worked out once at decode for the
    /// timing model ([`deps::deps`]).
    pub deps: Deps,
    /// A timer instruction (STPT, SPT, STCK(F), ECTG): the CPU reads the clocks for it.
    pub reads_clocks: bool,
}

impl Insn {
    /// The valid bytes.
    pub fn bytes(&self) -> &[u8] {
        self.raw.get(..usize::from(self.len)).unwrap_or(&self.raw)
    }

    /// Address of the next instruction.
    pub fn next(&self) -> u64 {
        self.addr.wrapping_add(u64::from(self.len))
    }

    /// Hex bytes for messages.
    pub fn hex(&self) -> String {
        self.bytes().iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
    }

    /// Register operand `k` (0 when absent).
    pub fn r(&self, k: usize) -> u8 {
        self.regs.get(k).copied().unwrap_or(0)
    }

    /// Immediate `k` (0 when absent).
    pub fn i(&self, k: usize) -> i64 {
        self.imms.get(k).copied().unwrap_or(0)
    }

    /// Storage operand `k`.
    pub fn m(&self, k: usize) -> MemRef {
        self.mems.get(k).copied().unwrap_or_default()
    }
}

/// The instruction length from the first byte's two top bits (the architecture's ILC rule).
pub fn length_of(first: u8) -> u8 {
    match first >> 6 {
        0 => 2,
        1 | 2 => 4,
        _ => 6,
    }
}

/// Decodes with one capstone handle.
pub struct S390Decoder {
    cs: Option<Capstone>,
}

impl std::fmt::Debug for S390Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S390Decoder").finish_non_exhaustive()
    }
}

impl Default for S390Decoder {
    fn default() -> S390Decoder {
        S390Decoder::new()
    }
}

impl S390Decoder {
    /// A decoder; if capstone cannot be set up every instruction decodes as unsupported.
    pub fn new() -> S390Decoder {
        let cs = Capstone::new().sysz().mode(ArchMode::Default).detail(true).build().ok();
        S390Decoder { cs }
    }

    /// Decodes every instruction of `bytes` placed at `addr`, linearly.
    pub fn decode_all(&self, addr: u64, bytes: &[u8]) -> Vec<Insn> {
        let mut out = Vec::new();
        let mut off = 0usize;
        while let Some(rest) = bytes.get(off..).filter(|r| !r.is_empty()) {
            let insn = self.decode_one(addr.wrapping_add(off as u64), rest);
            off += usize::from(insn.len.max(2));
            out.push(insn);
        }
        out
    }

    /// Decodes the instruction at the start of `bytes` (placed at `addr`).
    pub fn decode_one(&self, addr: u64, bytes: &[u8]) -> Insn {
        let mut raw = [0u8; MAX_INSN_LEN];
        let len = bytes.first().map_or(2, |b| length_of(*b));
        let n = bytes.len().min(usize::from(len));
        if let (Some(dst), Some(src)) = (raw.get_mut(..n), bytes.get(..n)) {
            dst.copy_from_slice(src);
        }
        let spec = lookup(&raw);
        let mut insn = Insn {
            addr,
            len,
            raw,
            name: spec.map_or("?", |s| s.name),
            known: spec.is_some(),
            op: Op::Unsupported,
            regs: [0; 4],
            imms: [0; 4],
            mems: [MemRef::default(); 2],
            mask: 15,
            privileged: spec.is_some_and(|s| s.privileged),
            class: Class::Simple,
            shape: Shape::EMPTY,
            deps: Deps::default(),
            reads_clocks: false,
        };
        let (Some(spec), Some(cs)) = (spec, &self.cs) else { return insn };
        if n < usize::from(len) {
            return insn;
        }
        let Ok(found) = cs.disasm_count(bytes.get(..n).unwrap_or(&[]), addr, 1) else { return insn };
        let Some(ci) = found.iter().next() else { return insn };
        if ci.len() != usize::from(len) {
            return insn;
        }
        let Ok(detail) = cs.insn_detail(ci) else { return insn };
        let ops: Vec<SysZOperand> = detail
            .arch_detail()
            .operands()
            .into_iter()
            .filter_map(|o| {
                // Other architectures' variants exist only when some crate enables them.
                #[allow(unreachable_patterns)]
                match o {
                    ArchOperand::SysZOperand(s) => Some(s),
                    _ => None,
                }
            })
            .collect();
        if fill_operands(&mut insn, spec, &ops).is_some() {
            insn.op = spec.op;
            insn.class = spec.class;
            insn.shape = spec.shape;
            insn.mask = crate::optable::mask_of(spec.op, &raw).unwrap_or(15);
            insn.reads_clocks = matches!(spec.op, Op::Stpt | Op::Spt | Op::Stck | Op::Ectg);
        }
        insn.deps = deps(&insn);
        insn
    }
}

/// Capstone's register id for r0..r15 is the number plus one.
fn gpr(id: u16) -> Option<u8> {
    let n = id.checked_sub(1)?;
    u8::try_from(n).ok().filter(|n| *n < 16)
}

/// Capstone's register id for f0..f15 (right after the condition-code register).
fn fpr(id: u16) -> Option<u8> {
    let n = id.checked_sub(18)?;
    u8::try_from(n).ok().filter(|n| *n < 16)
}

/// Assigns capstone's operands to the shape's slots: `R` general register, `F` floating-point
/// register, `I` immediate, `M` storage
/// (capstone reports base-less storage operands as immediates: those become displacements),
/// `?` the condition mask capstone lists only for the generic mnemonic (taken from the bytes).
fn fill_operands(insn: &mut Insn, spec: &Spec, ops: &[SysZOperand]) -> Option<()> {
    let slots = spec.shape.slots();
    let optional = slots.iter().filter(|c| **c == Slot::Mask).count();
    let skip_optional = ops.len() + optional == slots.len();
    if !skip_optional && ops.len() != slots.len() {
        return None;
    }
    let (mut nr, mut ni, mut nm) = (0usize, 0usize, 0usize);
    let mut it = ops.iter();
    for slot in slots {
        if *slot == Slot::Mask && skip_optional {
            continue;
        }
        let op = it.next()?;
        match (slot, op) {
            (Slot::Mask, SysZOperand::Imm(_)) => {}
            (Slot::Gpr, SysZOperand::Reg(r)) => {
                *insn.regs.get_mut(nr)? = gpr(r.0)?;
                nr += 1;
            }
            (Slot::Fpr, SysZOperand::Reg(r)) => {
                *insn.regs.get_mut(nr)? = fpr(r.0)?;
                nr += 1;
            }
            (Slot::Imm, SysZOperand::Imm(v)) => {
                *insn.imms.get_mut(ni)? = *v;
                ni += 1;
            }
            (Slot::Mem, SysZOperand::Mem(m)) => {
                *insn.mems.get_mut(nm)? = MemRef {
                    base: gpr(u16::from(m.base())),
                    index: gpr(u16::from(m.index())),
                    disp: m.disp(),
                    len: u16::try_from(m.length()).ok()?,
                };
                nm += 1;
            }
            (Slot::Mem, SysZOperand::Imm(v)) => {
                *insn.mems.get_mut(nm)? = MemRef { base: None, index: None, disp: *v, len: 0 };
                nm += 1;
            }
            _ => return None,
        }
    }
    Some(())
}

#[cfg(test)]
mod tests;
