//! The patch lists boot code applies to the entry code (arch/ia64/kernel/patch.c's
//! `ia64_patch_gate`, `ia64_patch_mckinley_e9`, `ia64_patch_phys_stack_reg`; reference
//! `linux-ia64-paths.md` section 1.4), done here on the linked image before it is loaded.
//!
//! Each list is a section of 4-byte self-relative offsets (`.xdata4 list, 1b-.`): entry
//! address + its value = the bundle to patch. What each list gets:
//! - `.data..patch.fsyscall_table`: the `movl` gets &fsyscall_table;
//! - `.data..patch.brl_fsys_bubble_down`: the `brl` gets fsys_bubble_down;
//! - `.data..patch.mckinley_e9`: the Errata 9 workaround bundle pair becomes `br.ret b6`
//!   and nops, as on every CPU but family 0x1f model 0 (the modelled Itanium 2 is a
//!   Madison, model 1);
//! - `.data..patch.phys_stack_reg`: left as assembled (the `adds r17=776` is right for 96
//!   physical stacked registers, the model's number);
//! - `.data..patch.rse` and `.data..patch.vtop`: left as assembled (the RSE workaround stays
//!   on with 96 stacked registers; vtop patches only matter under translation, which the
//!   harness leaves off).

use crate::asm::assemble;
use crate::bundle::Bundle;
use crate::decode::{decode_bundle, Slot};
use crate::encode::encode;
use crate::table::OpKind;
use emu_core::image::Image;
use emu_core::preprocess::{MemLoader, PreprocessOptions};

/// Why a patch list could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("patch list {list}: {message}")]
pub struct PatchError {
    /// The list's section.
    pub list: String,
    /// What is wrong.
    pub message: String,
}

/// What the lists were applied to, for the report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Patched {
    /// (list, bundles patched).
    pub counts: Vec<(String, usize)>,
}

fn err(list: &str, message: String) -> PatchError {
    PatchError { list: list.to_string(), message }
}

/// The 16 bytes at `addr` of the image's sections.
fn bundle_at(image: &Image, addr: u64) -> Option<[u8; 16]> {
    let s = image.sections.iter().find(|s| s.contains(addr) && s.contains(addr + 15))?;
    let off = (addr - s.addr) as usize;
    s.data.get(off..off + 16)?.try_into().ok()
}

fn put_bundle(image: &mut Image, addr: u64, bytes: [u8; 16]) -> bool {
    let Some(s) = image.sections.iter_mut().find(|s| s.contains(addr) && s.contains(addr + 15)) else { return false };
    let off = (addr - s.addr) as usize;
    match s.data.get_mut(off..off + 16) {
        Some(d) => {
            d.copy_from_slice(&bytes);
            true
        }
        None => false,
    }
}

/// The bundle addresses a list names.
fn targets(image: &Image, list: &str) -> Vec<u64> {
    let mut out = Vec::new();
    for s in image.sections.iter().filter(|s| s.name == list) {
        for (i, w) in s.data.chunks_exact(4).enumerate() {
            let rel = i32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let at = s.addr + 4 * i as u64;
            out.push(at.wrapping_add(rel as i64 as u64) & !0xf);
        }
    }
    out
}

/// Replaces operand `kind` of the long (MLX) instruction of the bundle at `addr`.
fn set_long_operand(image: &mut Image, list: &str, addr: u64, kind: OpKind, value: u64) -> Result<(), PatchError> {
    let bytes = bundle_at(image, addr).ok_or_else(|| err(list, format!("{addr:#x} is not in the image")))?;
    let decoded = decode_bundle(bytes).map_err(|e| err(list, format!("bundle at {addr:#x}: {e}")))?;
    let Some(Slot::Insn(insn)) = decoded.slots.get(2).copied() else {
        return Err(err(list, format!("bundle at {addr:#x} holds no long instruction")));
    };
    let form = insn.form();
    let kinds: Vec<OpKind> = form.operands().collect();
    if !kinds.contains(&kind) {
        return Err(err(list, format!("the instruction at {addr:#x} has no {kind:?} operand")));
    }
    let comp_bits = form.comps.iter().fold(0, |bits, c| bits | c.field.put(c.field.get(insn.raw.slot)));
    let values: Vec<i64> =
        kinds.iter().map(|k| if *k == kind { value as i64 } else { insn.operand(*k, addr) }).collect();
    let raw = encode(insn.form, comp_bits, insn.qp, &values, addr)
        .map_err(|e| err(list, format!("re-encoding the instruction at {addr:#x}: {e}")))?;
    let mut b =
        Bundle::from_bytes(bytes).ok_or_else(|| err(list, format!("bundle at {addr:#x}: reserved template")))?;
    b.slots[1] = raw.long;
    b.slots[2] = raw.slot;
    put_bundle(image, addr, b.to_bytes());
    Ok(())
}

/// The two bundles a CPU without Errata 9 gets in place of the workaround.
fn e9_replacement() -> Result<[u8; 32], PatchError> {
    let text = "\t.text\n{ .mib\n\tnop.m 0\n\tnop.i 0\n\tbr.ret.sptk.many b6\n;;\n}\n{ .mii\n\tnop.m 0\n\tnop.i 0\n\tnop.i 0\n}\n";
    let asm = assemble("<e9 replacement>.s", text, &PreprocessOptions::new(), &MemLoader::new())
        .map_err(|d| err(".data..patch.mckinley_e9", d.to_string()))?;
    let code = asm.object.iter().find(|s| s.name == ".text").map(|s| s.data.clone()).unwrap_or_default();
    code.try_into().map_err(|_| err(".data..patch.mckinley_e9", "the replacement is not two bundles".into()))
}

/// Applies the lists to `image` (symbols resolved from it).
///
/// # Errors
/// A list names a bundle outside the image or one without the instruction it patches, or a
/// symbol it needs is missing.
pub fn apply(image: &mut Image) -> Result<Patched, PatchError> {
    let sym = |image: &Image, list: &str, name: &str| {
        image.symbol(name).map(|s| s.value).ok_or_else(|| err(list, format!("no symbol `{name}` in the image")))
    };
    let mut done = Patched::default();
    let list = ".data..patch.fsyscall_table";
    let t = targets(image, list);
    if !t.is_empty() {
        let table = sym(image, list, "fsyscall_table")?;
        for &a in &t {
            set_long_operand(image, list, a, OpKind::Imm64, table)?;
        }
    }
    done.counts.push((list.to_string(), t.len()));
    let list = ".data..patch.brl_fsys_bubble_down";
    let t = targets(image, list);
    if !t.is_empty() {
        let target = sym(image, list, "fsys_bubble_down")?;
        for &a in &t {
            set_long_operand(image, list, a, OpKind::Tgt64, target)?;
        }
    }
    done.counts.push((list.to_string(), t.len()));
    let list = ".data..patch.mckinley_e9";
    let t = targets(image, list);
    let repl = e9_replacement()?;
    for &a in &t {
        let (first, second) = repl.split_at(16);
        let ok = put_bundle(image, a, first.try_into().unwrap_or([0; 16]))
            && put_bundle(image, a + 16, second.try_into().unwrap_or([0; 16]));
        if !ok {
            return Err(err(list, format!("{a:#x} is not in the image")));
        }
    }
    done.counts.push((list.to_string(), t.len()));
    Ok(done)
}
