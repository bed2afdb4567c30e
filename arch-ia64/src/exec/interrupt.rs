//! Interruptions: what each fault records and how one is delivered through the IVA
//! (SDM vol. 2 section 5.5; `reference/ia64-system.md` sections 2 and 9).

use super::{Ctx, Trap};
use crate::state::psr::Psr;
use crate::state::{cr, State};

/// Vector offsets from cr.iva (reference section 2).
pub mod vector {
    /// Break instruction.
    pub const BREAK: u16 = 0x2c00;
    /// External interrupt.
    pub const EXTERNAL: u16 = 0x3000;
    /// General exception (illegal operation, privileged operation/register, reserved field).
    pub const GENERAL: u16 = 0x5400;
    /// Disabled FP register.
    pub const DISABLED_FP: u16 = 0x5500;
    /// NaT consumption.
    pub const NAT_CONSUMPTION: u16 = 0x5600;
    /// Speculation (chk).
    pub const SPECULATION: u16 = 0x5700;
    /// Unaligned data reference.
    pub const UNALIGNED: u16 = 0x5a00;
    /// Floating-point fault (FP unit, issue 12).
    pub const FP_FAULT: u16 = 0x5c00;
    /// Floating-point trap (FP unit, issue 12).
    pub const FP_TRAP: u16 = 0x5d00;
    // Translation faults (TLB, issue 12; SDM vol. 2 section 8, reference section 2).
    /// Instruction TLB miss (VHPT walker enabled, search aborted).
    pub const ITLB: u16 = 0x0400;
    /// Data TLB miss (VHPT walker enabled, search aborted).
    pub const DTLB: u16 = 0x0800;
    /// Alternate instruction TLB miss (VHPT walker disabled).
    pub const ALT_ITLB: u16 = 0x0c00;
    /// Alternate data TLB miss (VHPT walker disabled).
    pub const ALT_DTLB: u16 = 0x1000;
    /// Data nested TLB: a data TLB miss with PSR.ic = 0.
    pub const DATA_NESTED_TLB: u16 = 0x1400;
    /// Instruction key miss.
    pub const IKEY_MISS: u16 = 0x1800;
    /// Data key miss.
    pub const DKEY_MISS: u16 = 0x1c00;
    /// Dirty bit.
    pub const DIRTY_BIT: u16 = 0x2000;
    /// Instruction access bit.
    pub const IACCESS_BIT: u16 = 0x2400;
    /// Data access bit.
    pub const DACCESS_BIT: u16 = 0x2800;
    /// Page not present.
    pub const PAGE_NOT_PRESENT: u16 = 0x5000;
    /// Key permission.
    pub const KEY_PERMISSION: u16 = 0x5100;
    /// Instruction access rights.
    pub const IACCESS_RIGHTS: u16 = 0x5200;
    /// Data access rights.
    pub const DACCESS_RIGHTS: u16 = 0x5300;
}

/// What a translation fault records besides cr.ifa (TLB, issue 12): cr.itir and cr.iha, and
/// whether the reference was an instruction fetch (ISR.x).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Translation {
    /// cr.itir: the faulting entry's ps and key, or the region's defaults on a miss.
    pub itir: u64,
    /// cr.iha: the VHPT entry address of cr.ifa.
    pub iha: u64,
    /// An instruction fetch (ISR.x, bit 32).
    pub exec: bool,
}

/// The data reference of a fault that records one: its address goes to cr.ifa, its kind to
/// ISR.r and ISR.w (SDM vol. 2 section 5.5; a semaphore sets both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataRef {
    /// The referenced address (cr.ifa).
    pub addr: u64,
    /// The access reads (ISR.r, bit 34).
    pub read: bool,
    /// The access writes (ISR.w, bit 33).
    pub write: bool,
}

/// One interruption to deliver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interruption {
    /// Vector offset from cr.iva.
    pub vector: u16,
    /// ISR.code.
    pub code: u16,
    /// cr.iim value, for break.
    pub iim: Option<u64>,
    /// Human-readable description ("privileged operation: rfi at cpl 3"); empty for a `break`,
    /// whose text [`Interruption::text`] makes from the IIM.
    pub what: String,
    /// A trap (IIP at the next instruction) rather than a fault.
    pub trap: bool,
    /// The data reference that faulted, for the faults that record one.
    pub data: Option<DataRef>,
    /// Raised by a non-access instruction (ISR.na, bit 35; `code{3:0}` then names which, e.g.
    /// 4 for lfetch: SDM vol. 2 Table 3-7, reference section 2).
    pub non_access: bool,
    /// cr.itir/cr.iha/ISR.x of a translation fault (TLB, issue 12).
    pub translation: Option<Translation>,
}

impl Interruption {
    /// A fault at `vector` with ISR.code `code` and nothing else recorded.
    pub fn fault(vector: u16, code: u16, what: String) -> Interruption {
        Interruption { vector, code, iim: None, what, trap: false, data: None, non_access: false, translation: None }
    }

    /// The name of the vector, for reports.
    pub fn vector_name(&self) -> &'static str {
        match self.vector {
            vector::BREAK => "break instruction",
            vector::EXTERNAL => "external interrupt",
            vector::GENERAL => "general exception",
            vector::DISABLED_FP => "disabled FP register",
            vector::NAT_CONSUMPTION => "NaT consumption",
            vector::SPECULATION => "speculation",
            vector::UNALIGNED => "unaligned data reference",
            vector::FP_FAULT => "floating-point fault",
            vector::FP_TRAP => "floating-point trap",
            vector::ITLB => "instruction TLB",
            vector::DTLB => "data TLB",
            vector::ALT_ITLB => "alternate instruction TLB",
            vector::ALT_DTLB => "alternate data TLB",
            vector::DATA_NESTED_TLB => "data nested TLB",
            vector::IKEY_MISS => "instruction key miss",
            vector::DKEY_MISS => "data key miss",
            vector::DIRTY_BIT => "dirty bit",
            vector::IACCESS_BIT => "instruction access bit",
            vector::DACCESS_BIT => "data access bit",
            vector::PAGE_NOT_PRESENT => "page not present",
            vector::KEY_PERMISSION => "key permission",
            vector::IACCESS_RIGHTS => "instruction access rights",
            vector::DACCESS_RIGHTS => "data access rights",
            _ => "interruption",
        }
    }
}

/// `break imm`: a fault, IIM = the immediate (0 for break.b).
pub fn break_fault(imm: u64) -> Trap {
    Trap::Guest(Box::new(Interruption::break_instruction(imm)))
}

// no allocation per system call (issue 17, w6-block2)
impl Interruption {
    /// The Break Instruction fault of `break imm`. Its description is left empty and made from
    /// the IIM only when a message needs it ([`Interruption::text`]): a system call raises one,
    /// and building the text each time was an allocation per call.
    pub fn break_instruction(imm: u64) -> Interruption {
        Interruption {
            vector: vector::BREAK,
            code: 0,
            iim: Some(imm),
            what: String::new(),
            trap: false,
            data: None,
            non_access: false,
            translation: None,
        }
    }

    /// The human-readable description ("break 0x100000", "privileged operation: ...").
    pub fn text(&self) -> String {
        match self.iim {
            Some(imm) if self.what.is_empty() && self.vector == vector::BREAK => format!("break 0x{imm:x}"),
            _ => self.what.clone(),
        }
    }
}

/// An Unaligned Data Reference fault (vector 0x5a00, ISR.code 0): a semaphore not naturally
/// aligned, or any data access not aligned to its size while PSR.ac is set (SDM vol. 1
/// section 4.5, vol. 2 section 5.5). cr.ifa gets the address when PSR.ic is set.
pub fn unaligned_reference(what: &str, size: u8, data: DataRef) -> Trap {
    let mut int = Interruption::fault(
        vector::UNALIGNED,
        0,
        format!("unaligned data reference: {what} of {size} bytes at {:#x}", data.addr),
    );
    int.data = Some(data);
    Trap::Guest(Box::new(int))
}

/// A privileged instruction at cpl != 0 (ISR.code 0x10).
pub fn privileged_operation(ctx: &Ctx) -> Trap {
    Trap::Guest(Box::new(Interruption::fault(
        vector::GENERAL,
        0x10,
        format!("privileged operation at 0x{:x} slot {}", ctx.ip, ctx.slot),
    )))
}

/// A privileged register access at cpl != 0 (ISR.code 0x20).
pub fn privileged_register(what: &str) -> Trap {
    Trap::Guest(Box::new(Interruption::fault(vector::GENERAL, 0x20, format!("privileged register: {what}"))))
}

/// An illegal operation (ISR.code 0).
pub fn illegal_operation(what: &str) -> Trap {
    Trap::Guest(Box::new(Interruption::fault(vector::GENERAL, 0, format!("illegal operation: {what}"))))
}

/// A reserved register or field (ISR.code 0x30).
pub fn reserved_field(what: &str) -> Trap {
    Trap::Guest(Box::new(Interruption::fault(vector::GENERAL, 0x30, format!("reserved register/field: {what}"))))
}

/// A register NaT consumed where it may not be (ISR.code 0x10).
pub fn nat_consumption(what: &str) -> Trap {
    Trap::Guest(Box::new(Interruption::fault(vector::NAT_CONSUMPTION, 0x10, format!("NaT consumption: {what}"))))
}

/// The non-access code of `lfetch`/`lfetch.fault` in ISR.code{3:0} (reference section 2).
pub const NON_ACCESS_LFETCH: u16 = 4;

/// A register NaT consumed by a non-access instruction (`lfetch.fault`'s address): ISR.code
/// 0x10 plus the instruction's non-access code, and ISR.na set (SDM vol. 3 lfetch,
/// `register_nat_consumption_fault(itype)` with itype NON_ACCESS).
pub fn nat_consumption_non_access(what: &str, non_access_code: u16) -> Trap {
    let mut int = Interruption::fault(
        vector::NAT_CONSUMPTION,
        0x10 | (non_access_code & 0xf),
        format!("NaT consumption: {what}"),
    );
    int.non_access = true;
    Trap::Guest(Box::new(int))
}

/// A failed speculation check (`chk.s`): branch to the recovery code via the speculation
/// vector when it is taken as a fault; the IA-64 chk.s branches directly instead, which the
/// executor does, so this is only used with an IVA-less harness for reporting.
pub fn speculation(what: &str) -> Trap {
    Trap::Guest(Box::new(Interruption::fault(vector::SPECULATION, 0, format!("speculation: {what}"))))
}

/// Delivers `int` raised by the instruction at (`ip`, `slot`): saves the interruption state
/// when PSR.ic is set, installs the interruption PSR, and returns the handler address.
/// `next` is the (bundle, slot) after the instruction, used for traps.
pub fn deliver(st: &mut State, int: &Interruption, ip: u64, slot: u8, next: (u64, u8)) -> u64 {
    let collect = st.psr.contains(Psr::IC);
    let (iip, ri) = if int.trap { next } else { (ip, slot) };
    if collect {
        st.cr[cr::IPSR as usize] = st.psr.with_ri(ri).bits();
        st.cr[cr::IIP as usize] = iip;
        st.cr[cr::IFS as usize] = 0;
        st.cr[cr::IIPA as usize] = ip;
        if let Some(iim) = int.iim {
            st.cr[cr::IIM as usize] = iim;
        }
        // IFA, like IIM, is written when PSR.ic is set (reference section 2, step 3).
        if let Some(d) = int.data {
            st.cr[cr::IFA as usize] = d.addr;
        }
        if let Some(t) = int.translation {
            st.cr[cr::ITIR as usize] = t.itir;
            st.cr[cr::IHA as usize] = t.iha;
        }
    }
    // A Data Nested TLB fault records nothing: the handler it interrupts still needs its own
    // ISR and IFA (reference section 2).
    if int.vector != vector::DATA_NESTED_TLB {
        let ni = u64::from(!collect);
        let (r, w) = int.data.map_or((0, 0), |d| (u64::from(d.read), u64::from(d.write)));
        let na = u64::from(int.non_access);
        let x = u64::from(int.translation.is_some_and(|t| t.exec));
        st.cr[cr::ISR as usize] =
            u64::from(int.code) | (u64::from(slot) << 41) | (ni << 39) | (na << 35) | (r << 34) | (w << 33) | (x << 32);
    }
    st.psr = st.psr.on_interruption(st.cr[cr::DCR as usize]);
    (st.cr[cr::IVA as usize] & !0x7fff) + u64::from(int.vector)
}

// FP unit (issue 12): the FP Exception fault and trap (SDM vol. 2 section 5.5 and the
// ISR.code layout of its FP vectors).

/// A Floating-point Exception fault (vector 0x5c00): `code` has v, d, z, swa of the scalar
/// or low half in bits 0-3 and of the high half of a parallel operation in bits 4-7
/// (`fpu::Event::isr_code`). Nothing of the instruction has been written.
pub fn fp_fault(code: u16, what: &str) -> Trap {
    Trap::Guest(Box::new(Interruption::fault(vector::FP_FAULT, code, format!("floating-point fault: {what}"))))
}

/// A Floating-point Exception trap (vector 0x5d00, IIP at the next instruction): `code`
/// has o, u, i, fpa (the delivered result is larger in magnitude than the exact one) of the
/// scalar or low half in bits 11-14 and of the high half in bits 7-10, and bit 0 set
/// (`fpu::Event::isr_code`). The result and the FPSR flags have been written.
pub fn fp_trap(code: u16, what: &str) -> Trap {
    let mut int = Interruption::fault(vector::FP_TRAP, code, format!("floating-point trap: {what}"));
    int.trap = true;
    Trap::Guest(Box::new(int))
}
