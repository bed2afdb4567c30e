//! The unwind directives (`.prologue`, `.save`, `.spillsp`, `.body`, `.restore` ...): each
//! becomes records positioned at the instruction that follows it (SCRA App. B names).

use super::capture::{Rec, SaveKind};
use super::unwind::UnwindDesc;
use crate::asm::assembler::{Assembler, EarlyEnv};
use crate::asm::expr::Expr;
use crate::asm::syntax::{DirArg, Located, Reg};
use emu_core::error::{Diagnostic, SourceLoc};

/// How the unwind records name one saved register (SCRA App. B): `(is P8, record)` pairs.
struct Saved {
    /// The `when` record of a save to a general register.
    when_gr: (bool, u8),
    /// The `when` record of a save to memory.
    when_mem: (bool, u8),
    /// P3 record of the general register it is saved in.
    gr: u8,
    /// The sp-relative location record.
    sprel: (bool, u8),
    /// The psp-relative location record.
    psprel: (bool, u8),
}

fn saved_register(name: &str) -> Option<Saved> {
    let s = |w: (bool, u8), gr, sprel, psprel| Saved { when_gr: w, when_mem: w, gr, sprel, psprel };
    Some(match name {
        "rp" => s((false, 4), 1, (true, 1), (false, 5)),
        "ar.pfs" => s((false, 6), 2, (true, 2), (false, 7)),
        "pr" => s((false, 8), 3, (true, 3), (false, 9)),
        "ar.lc" => s((false, 10), 5, (true, 4), (false, 11)),
        "ar.unat" => s((false, 12), 4, (true, 5), (false, 13)),
        "ar.fpsr" => s((false, 14), 10, (true, 6), (false, 15)),
        "ar.bsp" => s((true, 7), 8, (true, 9), (true, 8)),
        "ar.bspstore" => s((true, 10), 9, (true, 12), (true, 11)),
        "ar.rnat" => s((true, 13), 7, (true, 15), (true, 14)),
        "@priunat" => {
            Saved { when_gr: (true, 16), when_mem: (true, 19), gr: 11, sprel: (true, 18), psprel: (true, 17) }
        }
        _ => return None,
    })
}

/// A register as X1/X2 name it: (class ab, number).
fn spill_register(a: &DirArg, name: Option<&str>) -> Option<(u8, u8)> {
    match a {
        DirArg::Reg(Reg::Gr(n)) => Some((0, *n)),
        DirArg::Reg(Reg::Fr(n)) => Some((1, *n)),
        DirArg::Reg(Reg::Br(n)) if name != Some("rp") => Some((2, *n)),
        _ => special_register(name?).map(|r| (3, r)),
    }
}

/// The descriptor pair for a P7/P8 record.
pub(super) fn p78((p8, r): (bool, u8), v: u64) -> UnwindDesc {
    if p8 {
        UnwindDesc::P8 { r, v }
    } else {
        UnwindDesc::P7 { r, v }
    }
}

/// X1's number of a special register (class 3).
fn special_register(name: &str) -> Option<u8> {
    Some(match name {
        "pr" => 0,
        "psp" => 1,
        "@priunat" => 2,
        "rp" => 3,
        "ar.bsp" => 4,
        "ar.bspstore" => 5,
        "ar.rnat" => 6,
        "ar.unat" => 7,
        "ar.fpsr" => 8,
        "ar.pfs" => 9,
        "ar.lc" => 10,
        _ => return None,
    })
}

fn reg_name(a: &DirArg) -> Option<String> {
    Some(match a {
        DirArg::Reg(Reg::Ar(64)) => "ar.pfs".into(),
        DirArg::Reg(Reg::Ar(65)) => "ar.lc".into(),
        DirArg::Reg(Reg::Ar(36)) => "ar.unat".into(),
        DirArg::Reg(Reg::Ar(40)) => "ar.fpsr".into(),
        DirArg::Reg(Reg::Ar(17)) => "ar.bsp".into(),
        DirArg::Reg(Reg::Ar(18)) => "ar.bspstore".into(),
        DirArg::Reg(Reg::Ar(19)) => "ar.rnat".into(),
        DirArg::Reg(Reg::PrAll) => "pr".into(),
        DirArg::Reg(Reg::Br(0)) => "rp".into(),
        DirArg::Reg(Reg::Gr(12)) => "sp".into(),
        DirArg::At(s) => format!("@{s}"),
        DirArg::Expr(Expr::Sym(s)) => s.clone(),
        _ => return None,
    })
}

/// The unwind directives; any other directive in this family stops object output.
const UNWIND: &[&str] = &[
    ".prologue",
    ".body",
    ".save",
    ".save.g",
    ".save.f",
    ".save.b",
    ".save.gf",
    ".spillsp",
    ".spillpsp",
    ".spillreg",
    ".spillsp.p",
    ".spillpsp.p",
    ".spillreg.p",
    ".fframe",
    ".vframe",
    ".vframesp",
    ".vframepsp",
    ".restore",
    ".restorereg",
    ".restorereg.p",
    ".label_state",
    ".copy_state",
    ".altrp",
    ".unwabi",
    ".unwentry",
    ".personality",
    ".handlerdata",
    ".savesp",
    ".savepsp",
    // issue 13, remaining directives
    ".spill",
];

impl Assembler {
    /// Handles a directive that matters to the object writer (unwind records, symbol
    /// attributes); false when the directive still needs its ordinary handling.
    pub(in crate::asm) fn object_directive(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) -> bool {
        if !UNWIND.contains(&name) {
            return self.symbol_directive(name, args);
        }
        let at = self.sections[self.current].insns.len();
        let value = |asm: &Assembler, i: usize| -> Option<u64> {
            match args.get(i).map(|a| &a.value) {
                Some(DirArg::Expr(e)) => e.eval(&EarlyEnv { asm }).ok().map(|v| v as u64),
                _ => None,
            }
        };
        let gr = |i: usize| match args.get(i).map(|a| &a.value) {
            Some(DirArg::Reg(Reg::Gr(n))) => Some(*n),
            _ => None,
        };
        let reg0 = args.first().and_then(|a| reg_name(&a.value));
        let saved0 = reg0.as_deref().and_then(saved_register);
        // `.xxx.p qp, ...`: the predicate comes first.
        let (qp, rest) = match (name.ends_with(".p"), args.first().map(|a| &a.value)) {
            (true, Some(DirArg::Reg(Reg::Pr(q)))) => (Some(*q), &args[1..]),
            _ => (None, args),
        };
        let rest_value = |asm: &Assembler, i: usize| -> Option<u64> {
            match rest.get(i).map(|a| &a.value) {
                Some(DirArg::Expr(e)) => e.eval(&EarlyEnv { asm }).ok().map(|v| v as u64),
                _ => None,
            }
        };
        let mut recs: Vec<Rec> = Vec::new();
        let mut info = true;
        match name {
            ".prologue" if args.is_empty() => {
                self.count_prologues(|n| n + 1);
                recs.push(Rec::Region { body: false, gr: None });
                info = false;
            }
            ".prologue" => {
                self.count_prologues(|n| n + 1);
                // The first saving register as a number (the kernel's `32+4`) or written `r36`.
                let first = value(self, 1).or_else(|| gr(1).map(u64::from));
                if let (Some(mask), Some(g)) = (value(self, 0), first) {
                    if mask < 16 && g < 128 {
                        recs.push(Rec::Region { body: false, gr: Some((mask as u8, g as u8)) });
                    }
                }
            }
            ".body" => {
                recs.push(Rec::Region { body: true, gr: None });
                info = false;
            }
            ".save" => {
                if let (Some(sv), Some(g)) = (&saved0, gr(1)) {
                    recs.push(Rec::When { p8: sv.when_gr.0, r: sv.when_gr.1 });
                    recs.push(Rec::Desc(UnwindDesc::P3 { r: sv.gr, reg: g }));
                }
            }
            ".savesp" | ".savepsp" => {
                if let (Some(sv), Some(off)) = (&saved0, value(self, 1)) {
                    recs.push(Rec::When { p8: sv.when_mem.0, r: sv.when_mem.1 });
                    let d = if name == ".savesp" { p78(sv.sprel, off / 4) } else { p78(sv.psprel, (off + 16) / 4) };
                    recs.push(Rec::Desc(d));
                }
            }
            // `.spill OFFSET`: the psp-relative base of the spill area (P7 spill_base).
            ".spill" => {
                if let Some(off) = value(self, 0) {
                    recs.push(Rec::Desc(UnwindDesc::P7 { r: 2, v: off.wrapping_add(16) / 4 }));
                }
            }
            ".fframe" => {
                if let Some(size) = value(self, 0) {
                    recs.push(Rec::MemStackF { size });
                }
            }
            ".vframe" => {
                if let Some(g) = gr(0) {
                    recs.push(Rec::When { p8: false, r: 1 });
                    recs.push(Rec::Desc(UnwindDesc::P3 { r: 0, reg: g }));
                }
            }
            ".vframesp" | ".vframepsp" => {
                if name == ".vframepsp" {
                    self.warnings.push(Diagnostic::warning(
                        loc.clone(),
                        ".vframepsp is meaningless, assuming .vframesp was meant",
                    ));
                }
                if let Some(off) = value(self, 0) {
                    recs.push(Rec::When { p8: false, r: 1 });
                    recs.push(Rec::Desc(UnwindDesc::P7 { r: 3, v: off / 4 }));
                }
            }
            ".spillsp" | ".spillpsp" | ".spillsp.p" | ".spillpsp.p" => {
                let reg = rest.first().and_then(|a| spill_register(&a.value, reg_name(&a.value).as_deref()));
                if let (Some((ab, reg)), Some(off)) = (reg, rest_value(self, 1)) {
                    let sprel = name.starts_with(".spillsp");
                    let off = if sprel { off / 4 } else { (off + 16) / 4 };
                    recs.push(Rec::Spill { sprel, qp, ab, reg, off });
                }
            }
            // `.restorereg`: X2/X4 with target gr0, "restored" (SCRA App. B).
            ".restorereg" | ".restorereg.p" => {
                let reg = rest.first().and_then(|a| spill_register(&a.value, reg_name(&a.value).as_deref()));
                if let Some((ab, reg)) = reg {
                    recs.push(Rec::SpillReg { qp, ab, reg, tclass: 0, treg: 0 });
                }
            }
            ".personality" | ".handlerdata" => return self.personality_directive(name, args, loc),
            ".spillreg" | ".spillreg.p" => {
                let reg = rest.first().and_then(|a| spill_register(&a.value, reg_name(&a.value).as_deref()));
                let target = match rest.get(1).map(|a| &a.value) {
                    Some(DirArg::Reg(Reg::Gr(n))) => Some((0, *n)),
                    Some(DirArg::Reg(Reg::Fr(n))) => Some((1, *n)),
                    Some(DirArg::Reg(Reg::Br(n))) => Some((2, *n)),
                    _ => None,
                };
                if let (Some((ab, reg)), Some((tclass, treg))) = (reg, target) {
                    recs.push(Rec::SpillReg { qp, ab, reg, tclass, treg });
                }
            }
            ".save.g" | ".save.f" | ".save.b" | ".save.gf" => {
                let (g, f, b) = match name {
                    ".save.g" => (value(self, 0), None, None),
                    ".save.f" => (None, value(self, 0), None),
                    ".save.b" => (None, None, value(self, 0)),
                    _ => (value(self, 0), value(self, 1), None),
                };
                // `.save.g MASK, grN` / `.save.b MASK, grN`: saved to grN, grN+1... (P9/P2).
                let to_gr = if matches!(name, ".save.g" | ".save.b") { gr(1) } else { None };
                let kind = match (name, to_gr) {
                    (_, Some(_)) => SaveKind::Gr,
                    (".save.gf", _) => SaveKind::MemGf,
                    _ => SaveKind::Mem,
                };
                let mut regs: Vec<(u8, u8, SaveKind)> = Vec::new();
                // fr before gr for .save.gf, as gas assigns them to the following instructions.
                for bit in 0..20u8 {
                    if f.is_some_and(|m| m >> bit & 1 == 1) {
                        regs.push((1, if bit < 4 { 2 + bit } else { 12 + bit }, kind));
                    }
                }
                for bit in 0..4u8 {
                    if g.is_some_and(|m| m >> bit & 1 == 1) {
                        regs.push((2, 4 + bit, kind));
                    }
                }
                for bit in 0..5u8 {
                    if b.is_some_and(|m| m >> bit & 1 == 1) {
                        regs.push((3, 1 + bit, kind));
                    }
                }
                let valid = g.is_none_or(|m| m < 16) && f.is_none_or(|m| m < 1 << 20) && b.is_none_or(|m| m < 32);
                if let (true, Some(p)) = (valid && !regs.is_empty(), self.obj.proc.as_mut()) {
                    if !p.queue.is_empty() {
                        self.warnings.push(Diagnostic::warning(loc.clone(), "Previous .save incomplete"));
                    }
                    p.queue = regs.into();
                    p.has_info = true;
                    if let Some(reg) = to_gr {
                        let d = match (g, b) {
                            (Some(m), _) => UnwindDesc::P9 { grmask: m as u8, gr: reg },
                            (_, m) => UnwindDesc::P2 { brmask: m.unwrap_or(0) as u8, gr: reg },
                        };
                        p.recs.push((at, Rec::Desc(d)));
                    }
                    return true;
                }
            }
            ".altrp" => {
                if let Some(DirArg::Reg(Reg::Br(b))) = args.first().map(|a| &a.value) {
                    recs.push(Rec::Desc(UnwindDesc::P3 { r: 6, reg: *b }));
                }
            }
            ".unwabi" => {
                let abi = match args.first().map(|a| &a.value) {
                    Some(DirArg::At(s)) if s == "svr4" => Some(0),
                    Some(DirArg::At(s)) if s == "hpux" => Some(1),
                    Some(DirArg::At(s)) if s == "nt" => Some(2),
                    _ => value(self, 0),
                };
                if let (Some(abi), Some(context)) = (abi, value(self, 1)) {
                    recs.push(Rec::Desc(UnwindDesc::Unwabi { abi: abi as u8, context: context as u8 }));
                }
            }
            ".label_state" | ".copy_state" => {
                if let Some(l) = value(self, 0) {
                    if let Some(p) = self.obj.proc.as_mut() {
                        if name == ".label_state" {
                            p.labelled_prologues.insert(l, p.prologues);
                        } else {
                            p.prologues = p.labelled_prologues.get(&l).copied().unwrap_or(0);
                        }
                    }
                    let d = if name == ".label_state" { UnwindDesc::LabelState(l) } else { UnwindDesc::CopyState(l) };
                    recs.push(Rec::Desc(d));
                }
            }
            ".restore" if reg0.as_deref() == Some("sp") => {
                let open = self.obj.proc.as_ref().map_or(0, |p| p.prologues);
                let ecount = if args.len() > 1 { value(self, 1) } else { Some(open.saturating_sub(1)) };
                if let Some(ecount) = ecount {
                    // The epilogue pops `ecount + 1` prologue regions.
                    self.count_prologues(|n| n.saturating_sub(ecount + 1));
                    recs.push(Rec::Epilogue { ecount });
                }
            }
            _ => {}
        }
        if recs.is_empty() && name != ".unwentry" {
            self.obj.errors.push(Diagnostic::error(
                loc.clone(),
                format!("`{name}` with these operands is not modelled by the object writer (unwind information)"),
            ));
        }
        if let Some(p) = self.obj.proc.as_mut() {
            p.has_info |= info;
            p.recs.extend(recs.into_iter().map(|r| (at, r)));
        } else if name != ".unwentry" {
            self.obj.errors.push(Diagnostic::error(loc.clone(), format!("`{name}` outside `.proc`/`.endp`")));
        }
        true
    }

    /// Updates the open procedure's count of prologue regions.
    fn count_prologues(&mut self, f: impl FnOnce(u64) -> u64) {
        if let Some(p) = self.obj.proc.as_mut() {
            p.prologues = f(p.prologues);
        }
    }
}
