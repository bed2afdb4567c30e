//! Unwind information: descriptor records (Itanium Software Conventions and Runtime
//! Architecture Guide, App. B) in `.IA_64.unwind_info` blocks and the 24-byte
//! `.IA_64.unwind` table entries that point at them (`ia64-elf.md` §4).

use super::ObjectError;

/// One procedure's unwind information, positions already resolved to slots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnwindProc {
    /// Code section (index in [`super::ObjectParts::sections`]).
    pub section: usize,
    /// Offset of the first bundle.
    pub start: u64,
    /// Offset after the last bundle.
    pub end: u64,
    /// The regions in order (empty for `.unwentry`: a header with no descriptors).
    pub regions: Vec<Region>,
    /// `.personality NAME`: the routine, pointed to after the descriptors (issue 13).
    pub personality: Option<String>,
    /// `.handlerdata`: the section (index in [`super::ObjectParts::sections`]) whose bytes
    /// and relocations follow the personality pointer in the info block; not written alone.
    pub handler: Option<usize>,
}

/// A prologue or body region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// Body (true) or prologue.
    pub body: bool,
    /// `.prologue MASK, GRSAVE` (R2): rp/ar.pfs/psp/pr mask and the first register.
    pub gr: Option<(u8, u8)>,
    /// Length in instruction slots.
    pub rlen: u64,
    /// The region's descriptors in source order; `t` fields count slots from its start.
    pub descs: Vec<UnwindDesc>,
}

/// One prologue or body descriptor (SCRA App. B formats).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnwindDesc {
    /// P7: record `r` (0-15) with one value (a `when` slot, or an encoded offset).
    P7 {
        /// Record number.
        r: u8,
        /// The value (ULEB128).
        v: u64,
    },
    /// P7 mem_stack_f: a fixed frame of `size` bytes allocated at slot `t`.
    MemStackF {
        /// Slot from the region start.
        t: u64,
        /// Frame size in bytes.
        size: u64,
    },
    /// P8: record `r` (1-19) with one value.
    P8 {
        /// Record number.
        r: u8,
        /// The value (ULEB128).
        v: u64,
    },
    /// P3: `r` (0 psp_gr, 1 rp_gr, 2 pfs_gr, 3 preds_gr, 4 unat_gr, 5 lc_gr, 6 rp_br,
    /// 7 rnat_gr, 8 bsp_gr, 9 bspstore_gr, 10 fpsr_gr, 11 priunat_gr) kept in register `reg`.
    P3 {
        /// What is saved.
        r: u8,
        /// Where (GR or BR number).
        reg: u8,
    },
    /// X1 (X3 when predicated): register `reg` of class `ab` (0 gr, 1 fr, 2 br, 3 special)
    /// spilled at slot `t` to sp + 4*`off` (`sprel`) or psp + 16 - 4*`off`.
    Spill {
        /// sp-relative (else psp-relative).
        sprel: bool,
        /// The qualifying predicate of `.spillsp.p` and the like.
        qp: Option<u8>,
        /// Register class.
        ab: u8,
        /// Register number in the class.
        reg: u8,
        /// Slot from the region start.
        t: u64,
        /// Offset in 4-byte units as encoded.
        off: u64,
    },
    /// X2 (X4 when predicated): register `reg` of class `ab` copied at slot `t` to `treg` of
    /// class `tclass` (0 gr, 1 fr, 2 br).
    SpillReg {
        /// The qualifying predicate.
        qp: Option<u8>,
        /// Source register class.
        ab: u8,
        /// Source register number.
        reg: u8,
        /// Target register class.
        tclass: u8,
        /// Target register number.
        treg: u8,
        /// Slot from the region start.
        t: u64,
    },
    /// P6 gr_mem (`fr == false`, r4-r7) or fr_mem (f2-f5): registers saved to memory.
    P6 {
        /// Floating-point (else general) registers.
        fr: bool,
        /// 4-bit mask.
        mask: u8,
    },
    /// P5 frgr_mem: r4-r7 (4 bits) and f2-f5, f16-f31 (20 bits) saved to memory.
    P5 {
        /// General registers.
        gr: u8,
        /// Floating-point registers.
        fr: u32,
    },
    /// P9 gr_gr: r4-r7 (mask) saved to consecutive general registers from `gr` (issue 13).
    P9 {
        /// 4-bit mask.
        grmask: u8,
        /// First saving register.
        gr: u8,
    },
    /// P2 br_gr: b1-b5 (mask) saved to consecutive general registers from `gr` (issue 13).
    P2 {
        /// 5-bit mask.
        brmask: u8,
        /// First saving register.
        gr: u8,
    },
    /// P1 br_mem: b1-b5 saved to memory.
    P1 {
        /// 5-bit mask.
        mask: u8,
    },
    /// P4 spill_mask: 2 bits per prologue slot (0 none, 1 fr, 2 gr, 3 br), first slot in the
    /// high bits, ceil(rlen/4) bytes.
    P4(Vec<u8>),
    /// P10 unwabi.
    Unwabi {
        /// ABI (0 @svr4, 1 @hpux, 2 @nt).
        abi: u8,
        /// Context byte.
        context: u8,
    },
    /// B1/B4 label_state.
    LabelState(u64),
    /// B1/B4 copy_state.
    CopyState(u64),
    /// B2/B3 epilogue: `t` slots before the end of the body region, `ecount` nested frames.
    Epilogue {
        /// Slots before the end of the region.
        t: u64,
        /// Extra frames popped.
        ecount: u64,
    },
}

fn uleb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn reg7(v: u8) -> Result<u8, ObjectError> {
    if v < 128 {
        Ok(v)
    } else {
        Err(ObjectError::Unwind(format!("register number {v} does not fit 7 bits")))
    }
}

fn desc(out: &mut Vec<u8>, d: &UnwindDesc) -> Result<(), ObjectError> {
    match *d {
        UnwindDesc::P6 { fr, mask } => out.push(0xc0 | (u8::from(!fr) << 4) | (mask & 0xf)),
        UnwindDesc::P5 { gr, fr } => {
            let v = (u32::from(gr & 0xf) << 20) | (fr & 0xf_ffff);
            out.extend_from_slice(&[0xb9, (v >> 16) as u8, (v >> 8) as u8, v as u8]);
        }
        UnwindDesc::P1 { mask } => out.push(0x80 | (mask & 0x1f)),
        UnwindDesc::P9 { grmask, gr } => out.extend_from_slice(&[0xf1, grmask & 0xf, reg7(gr)?]),
        UnwindDesc::P2 { brmask, gr } => {
            out.push(0xa0 | ((brmask >> 1) & 0xf));
            out.push(((brmask & 1) << 7) | reg7(gr)?);
        }
        UnwindDesc::P4(ref bytes) => {
            out.push(0xb8);
            out.extend_from_slice(bytes);
        }
        UnwindDesc::P7 { r, v } => {
            out.push(0xe0 | (r & 0xf));
            uleb(out, v);
        }
        UnwindDesc::MemStackF { t, size } => {
            out.push(0xe0);
            uleb(out, t);
            uleb(out, size / 16);
        }
        UnwindDesc::P8 { r, v } => {
            out.extend_from_slice(&[0xf0, r]);
            uleb(out, v);
        }
        UnwindDesc::P3 { r, reg } => {
            out.push(0xb0 | (r >> 1));
            out.push(((r & 1) << 7) | reg7(reg)?);
        }
        UnwindDesc::Spill { sprel, qp, ab, reg, t, off } => {
            let s = u8::from(sprel) << 7;
            match qp {
                None => out.extend_from_slice(&[0xf9, s | ((ab & 3) << 5) | (reg & 0x1f)]),
                Some(q) => out.extend_from_slice(&[0xfb, s | (q & 0x3f), ((ab & 3) << 5) | (reg & 0x1f)]),
            }
            uleb(out, t);
            uleb(out, off);
        }
        UnwindDesc::SpillReg { qp, ab, reg, tclass, treg, t } => {
            let x = (tclass >> 1) & 1;
            let y = tclass & 1;
            let src = (x << 7) | ((ab & 3) << 5) | (reg & 0x1f);
            let dst = (y << 7) | reg7(treg)?;
            match qp {
                None => out.extend_from_slice(&[0xfa, src, dst]),
                Some(q) => out.extend_from_slice(&[0xfc, q & 0x3f, src, dst]),
            }
            uleb(out, t);
        }
        UnwindDesc::Unwabi { abi, context } => out.extend_from_slice(&[0xff, abi, context]),
        UnwindDesc::LabelState(l) | UnwindDesc::CopyState(l) => {
            let copy = u8::from(matches!(d, UnwindDesc::CopyState(_)));
            if l < 32 {
                out.push(0x80 | (copy << 5) | l as u8);
            } else {
                out.push(0xf0 | (copy << 3));
                uleb(out, l);
            }
        }
        UnwindDesc::Epilogue { t, ecount } => {
            if ecount < 32 {
                out.push(0xc0 | ecount as u8);
                uleb(out, t);
            } else {
                out.push(0xe0);
                uleb(out, t);
                uleb(out, ecount);
            }
        }
    }
    Ok(())
}

/// The info block of `p`: header word, descriptors, zero padding to 8 bytes; with a
/// personality routine (flags EHANDLER|UHANDLER), its 8-byte pointer and then `handler`, the
/// handler data, padded to 8 bytes (issue 13).
pub(super) fn info_block(p: &UnwindProc, handler: &[u8]) -> Result<Vec<u8>, ObjectError> {
    let mut d = Vec::new();
    for r in &p.regions {
        if let Some((mask, grsave)) = r.gr {
            d.push(0x40 | ((mask >> 1) & 7));
            d.push(((mask & 1) << 7) | reg7(grsave)?);
            uleb(&mut d, r.rlen);
        } else if r.rlen < 32 {
            d.push((u8::from(r.body) << 5) | r.rlen as u8);
        } else {
            d.push(0x60 | u8::from(r.body));
            uleb(&mut d, r.rlen);
        }
        for x in &r.descs {
            desc(&mut d, x)?;
        }
    }
    d.resize(d.len().div_ceil(8) * 8, 0);
    let flags: u64 = if p.personality.is_some() { 3 } else { 0 };
    let header: u64 = (1 << 48) | (flags << 32) | (d.len() as u64 / 8);
    let mut out = header.to_le_bytes().to_vec();
    out.extend(d);
    if p.personality.is_some() {
        out.extend([0u8; 8]);
    }
    out.extend_from_slice(handler);
    out.resize(out.len().div_ceil(8) * 8, 0);
    Ok(out)
}

/// The names of the unwind sections of code section `text` (gas: `.IA_64.unwind_info` and
/// `.IA_64.unwind` for `.text`, `.gnu.linkonce.ia64unwi.X`/`.gnu.linkonce.ia64unw.X` for
/// `.gnu.linkonce.t.X`, the section's name appended for any other).
pub(super) fn section_names(text: &str) -> (String, String) {
    if let Some(x) = text.strip_prefix(".gnu.linkonce.t.") {
        return (format!(".gnu.linkonce.ia64unwi.{x}"), format!(".gnu.linkonce.ia64unw.{x}"));
    }
    let suffix = if text == ".text" { "" } else { text };
    (format!(".IA_64.unwind_info{suffix}"), format!(".IA_64.unwind{suffix}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dir_alt_of_the_corpus() {
        // directives.S `dir_alt`, bytes from GNU as 2.40.
        let p = UnwindProc {
            section: 0,
            start: 0x70,
            end: 0x90,
            regions: vec![
                Region {
                    body: false,
                    gr: None,
                    rlen: 1,
                    descs: vec![
                        UnwindDesc::P3 { r: 6, reg: 7 },
                        UnwindDesc::P7 { r: 6, v: 0 },
                        UnwindDesc::P3 { r: 2, reg: 34 },
                    ],
                },
                Region { body: true, gr: None, rlen: 5, descs: vec![] },
            ],
            personality: None,
            handler: None,
        };
        let b = info_block(&p, &[]).unwrap();
        assert_eq!(b, [1, 0, 0, 0, 0, 0, 1, 0, 0x01, 0xb3, 0x07, 0xe6, 0x00, 0xb1, 0x22, 0x25]);
    }
}
