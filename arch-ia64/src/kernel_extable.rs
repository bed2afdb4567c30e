//! Kernel exception-table fixups, a harness option of the IA-64 run: when a load or store
//! of the code faults and the faulting instruction is listed in the image's `__ex_table`,
//! execution goes on at the entry's fixup as Linux's fault path makes it, instead of the
//! run stopping with the memory error.
//!
//! The rule, from Linux 6.1 (facts only; the code is this crate's own):
//! - `arch/ia64/include/asm/extable.h`: an entry is two 32-bit words, `insn` and `fixup`, each
//!   relative to its own address (`ARCH_HAS_RELATIVE_EXTABLE`); the `EX()`/`EXCLR()` macros of
//!   `asm/asmmacro.h` emit them with a tag label, so `insn` names the bundle address plus the
//!   slot of the instruction.
//! - `arch/ia64/include/asm/exception.h` and `kernel/unaligned.c`: the table is searched for
//!   `cr.iip + psr.ri`, the faulting bundle and slot.
//! - `arch/ia64/mm/extable.c` (`ia64_handle_exception`): with `fix` = the address of the
//!   `fixup` word plus its value, r8 becomes `-EFAULT`, r9 becomes 0 when bit 2 of `fix` is set,
//!   and execution continues at bundle `fix & ~0xf`, slot `fix & 3`.
//!
//! - `arch/ia64/mm/fault.c` (`ia64_do_page_fault`): a fault of a speculative load or of
//!   `lfetch.fault` on an address with no mapping is not an error: the handler sets psr.ed
//!   and returns, so the instruction runs again with its fault deferred (the load's target
//!   gets a NaT, the prefetch is cancelled; its base update still happens). psr.ed lasts for
//!   that one instruction (SDM vol. 2, the PSR.ed description), so here the instruction is
//!   stepped once with psr.ed set, which is then cleared. Such faults are checked before the
//!   table, as the kernel checks them before `search_exception_tables`.
//!
//! The interruption and the `rfi` around the handler are not run: no cycles are charged for
//! them (a run that takes a fixup has no meaningful cycle count), and every other register is
//! left as the faulting instruction found it, as the kernel's save and restore of pt_regs do.

use crate::cpu::Ia64Cpu;
use crate::decode::{decode_bundle, Slot};
use crate::exec::ExecError;
use crate::state::psr::Psr;
use emu_core::cpu::{Cpu, Machine, RunError, StopReason, StopWhen};
use emu_core::image::Image;

/// The section the `EX()` macros fill.
pub const SECTION: &str = "__ex_table";

/// Linux's `EFAULT` (include/uapi/asm-generic/errno-base.h).
pub const EFAULT: u64 = 14;

/// The exception table of an image: (faulting bundle | slot, continuation) pairs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExTable {
    /// Sorted by the faulting address.
    entries: Vec<(u64, u64)>,
}

/// A fault the kernel's fault path handled during a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixup {
    /// The faulting instruction, bundle | slot.
    pub at: u64,
    /// Where execution went on: the `fix` value of the table entry (its bit 2 included), or
    /// [`DEFERRED`] for a speculative load or `lfetch.fault` re-run with psr.ed.
    pub fix: u64,
}

/// [`Fixup::fix`] of a fault deferred by psr.ed rather than fixed up from the table.
pub const DEFERRED: u64 = u64::MAX;

impl ExTable {
    /// The table of every `__ex_table` section of `image` (none: an empty table).
    ///
    /// # Errors
    /// A section whose size is not a whole number of 8-byte entries.
    pub fn from_image(image: &Image) -> Result<ExTable, String> {
        let mut entries = Vec::new();
        for sec in image.sections.iter().filter(|s| s.name == SECTION) {
            if sec.data.len() % 8 != 0 {
                return Err(format!("{SECTION} at {:#x} is {} bytes, not a multiple of 8", sec.addr, sec.data.len()));
            }
            for (i, e) in sec.data.chunks_exact(8).enumerate() {
                let word = |b: &[u8]| i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                let at = sec.addr + 8 * i as u64;
                let insn = at.wrapping_add_signed(word(&e[..4]));
                let fix = (at + 4).wrapping_add_signed(word(&e[4..]));
                entries.push((insn, fix));
            }
        }
        entries.sort_unstable();
        Ok(ExTable { entries })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `fix` value for a fault at `at` (bundle | slot).
    pub fn lookup(&self, at: u64) -> Option<u64> {
        let i = self.entries.binary_search_by_key(&at, |e| e.0).ok()?;
        Some(self.entries[i].1)
    }

    /// Does what `ia64_handle_exception` does to the interrupted state, for a fault at `at`;
    /// `None` (and no change) when `at` has no entry.
    pub fn apply(&self, cpu: &mut Ia64Cpu, at: u64) -> Option<Fixup> {
        let fix = self.lookup(at)?;
        let st = &mut cpu.state;
        // r8 and r9 are static registers, so no frame question arises.
        st.gr.write(8, EFAULT.wrapping_neg(), false).ok()?;
        if fix & 4 != 0 {
            st.gr.write(9, 0, false).ok()?;
        }
        st.ip = fix & !0xf;
        st.psr = st.psr.with_ri((fix & 3) as u8);
        Some(Fixup { at, fix })
    }
}

/// How a run with fixups ended.
#[derive(Debug, Clone)]
pub struct FixupRun {
    /// Why the machine stopped.
    pub stop: StopReason,
    /// The fixups taken, in order.
    pub fixups: Vec<Fixup>,
    /// Instructions executed in all.
    pub executed: u64,
}

/// Runs `machine` as `stop` says; a memory fault at an instruction `table` lists is fixed up
/// and the run goes on (the budget counts every instruction of the whole run).
///
/// # Errors
/// Any other emulator error, or a fault at an instruction the table does not list, with the
/// instructions executed before it.
pub fn run_with_fixups(
    machine: &mut Machine<Ia64Cpu>,
    table: &ExTable,
    stop: &StopWhen,
) -> Result<FixupRun, RunError<ExecError>> {
    let start = machine.cpu.instructions();
    let done = |m: &Machine<Ia64Cpu>| m.cpu.instructions() - start;
    let mut fixups = Vec::new();
    loop {
        let budget = StopWhen { max_insns: stop.max_insns.saturating_sub(done(machine)), ..*stop };
        match machine.run(&budget) {
            Ok(stop) => return Ok(FixupRun { stop, fixups, executed: done(machine) }),
            Err(RunError { error: ExecError::Memory { pc, slot, fault }, .. }) => {
                if deferrable(machine, pc, slot) {
                    machine.cpu.state.psr.insert(Psr::ED);
                    let stepped = machine.cpu.step(&mut machine.mem);
                    machine.cpu.state.psr.remove(Psr::ED);
                    stepped.map_err(|error| RunError { error, executed: done(machine) })?;
                    fixups.push(Fixup { at: pc | u64::from(slot), fix: DEFERRED });
                    continue;
                }
                match table.apply(&mut machine.cpu, pc | u64::from(slot)) {
                    Some(f) => fixups.push(f),
                    None => {
                        let executed = done(machine);
                        return Err(RunError { error: ExecError::Memory { pc, slot, fault }, executed });
                    }
                }
            }
            Err(RunError { error, .. }) => return Err(RunError { error, executed: done(machine) }),
        }
    }
}

/// Whether the instruction at `pc`, `slot` is one whose faults the kernel defers with psr.ed:
/// a speculative load (`ld*.s`, `ld*.sa`, `ldf*.s`, `ldf*.sa`, ...) or an `lfetch`.
fn deferrable(machine: &Machine<Ia64Cpu>, pc: u64, slot: u8) -> bool {
    let mut bytes = [0u8; 16];
    if machine.mem.peek_bytes(pc, &mut bytes).is_err() {
        return false;
    }
    let Ok(bundle) = decode_bundle(bytes) else { return false };
    let Some(Slot::Insn(insn)) = bundle.slots.get(usize::from(slot)) else { return false };
    let Some(name) = insn.form().mnemonic(insn.raw.slot) else { return false };
    let mut parts = name.split('.');
    let base = parts.next().unwrap_or("");
    base == "lfetch" || (base.starts_with("ld") && parts.any(|c| c == "s" || c == "sa"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::assemble;
    use crate::run::{prepare, RunConfig};
    use emu_core::image::{Section, SectionKind};
    use emu_core::preprocess::{FsLoader, PreprocessOptions};

    const SRC: &str = "\t.text
f:
{ .mii
\tld8 r10=[r32]
\tnop.i 0
\tnop.i 0 ;;
}
{ .mib
\tmov r8=1
\tnop.i 0
\tbr.ret.sptk.many b0 ;;
}
fix:
{ .mib
\tnop.m 0
\tnop.i 0
\tbr.ret.sptk.many b0 ;;
}
g:
{ .mii
\tlfetch.fault [r32],64
\tnop.i 0
\tnop.i 0 ;;
}
{ .mib
\tmov r8=r32
\tnop.i 0
\tbr.ret.sptk.many b0 ;;
}
";

    /// The image of [`SRC`] with an `__ex_table` entry for the `ld8` at `f` (fixup `fix`,
    /// `flags` ORed into the continuation, as `EXCLR` sets bit 2).
    fn image(flags: u64) -> Image {
        let asm = assemble("t.s", SRC, &PreprocessOptions::new(), &FsLoader).expect("assembles");
        let mut image = asm.image;
        let at = |n: &str| image.symbol(n).expect("label").value;
        let (f, fix) = (at("f"), at("fix"));
        let table = 0x0010_0000u64;
        let mut data = Vec::new();
        data.extend_from_slice(&((f as i64 - table as i64) as i32).to_le_bytes());
        data.extend_from_slice(&(((fix | flags) as i64 - (table + 4) as i64) as i32).to_le_bytes());
        image.sections.push(Section { name: SECTION.into(), addr: table, data, kind: SectionKind::Data, align: 4 });
        image
    }

    fn run(image: &Image, entry: &str, r32: u64) -> Result<(FixupRun, Machine<Ia64Cpu>), String> {
        // `in0` is r32: the entry gets a frame of one register.
        let sets = vec![
            ("cfm".to_string(), "1".to_string()),
            ("r32".into(), format!("{r32:#x}")),
            ("r9".into(), "0x99".into()),
        ];
        let cfg = RunConfig { entry: Some(entry.into()), sets, ..RunConfig::default() };
        let (mut m, _) = prepare(image, &cfg).map_err(|e| e.to_string())?;
        let table = ExTable::from_image(image)?;
        let stop = StopWhen { max_insns: 100, ..StopWhen::default() };
        let run = run_with_fixups(&mut m, &table, &stop).map_err(|e| e.to_string())?;
        Ok((run, m))
    }

    #[test]
    fn a_listed_load_fault_continues_at_the_fixup_with_efault() {
        let img = image(0);
        let (run, m) = run(&img, "f", 0x6000_0000).expect("runs");
        assert!(matches!(run.stop, StopReason::Sentinel), "{:?}", run.stop);
        let f = img.symbol("f").map(|s| s.value).unwrap_or(0);
        assert_eq!(run.fixups.len(), 1);
        assert_eq!(run.fixups[0].at, f);
        assert_eq!(m.cpu.state.gr.read_or_zero(8).0, EFAULT.wrapping_neg());
        // Bit 2 clear: r9 keeps its value.
        assert_eq!(m.cpu.state.gr.read_or_zero(9).0, 0x99);
    }

    #[test]
    fn bit_2_of_the_fixup_clears_r9() {
        let (run, m) = run(&image(4), "f", 0x6000_0000).expect("runs");
        assert_eq!(run.fixups.len(), 1);
        assert_eq!(m.cpu.state.gr.read_or_zero(9).0, 0);
        assert_eq!(m.cpu.state.gr.read_or_zero(8).0, EFAULT.wrapping_neg());
    }

    #[test]
    fn a_mapped_load_takes_no_fixup() {
        let (run, m) = run(&image(0), "f", 0x7000_0000).expect("runs");
        assert!(run.fixups.is_empty());
        assert_eq!(m.cpu.state.gr.read_or_zero(8).0, 1);
    }

    #[test]
    fn an_unlisted_fault_is_an_error() {
        let mut img = image(0);
        img.sections.retain(|s| s.name != SECTION);
        let err = run(&img, "f", 0x6000_0000).expect_err("a fault without an entry");
        assert!(err.contains("unmapped"), "{err}");
    }

    #[test]
    fn a_faulting_lfetch_is_cancelled_but_updates_its_base() {
        let (run, m) = run(&image(0), "g", 0x6000_0000).expect("runs");
        assert!(matches!(run.stop, StopReason::Sentinel), "{:?}", run.stop);
        assert_eq!(run.fixups.len(), 1);
        assert_eq!(run.fixups[0].fix, DEFERRED);
        assert_eq!(m.cpu.state.gr.read_or_zero(8).0, 0x6000_0040);
        assert!(!m.cpu.state.psr.contains(Psr::ED), "psr.ed lasts one instruction");
    }

    #[test]
    fn the_cfm_override_refuses_fields_beyond_sor() {
        let sets = vec![("cfm".to_string(), format!("{:#x}", 1u64 << 18))];
        let cfg = RunConfig { entry: Some("f".into()), sets, ..RunConfig::default() };
        let err = prepare(&image(0), &cfg).expect_err("refused").to_string();
        assert!(err.contains("only sof, sol and sor"), "{err}");
    }

    #[test]
    fn a_table_of_the_wrong_size_is_refused() {
        let mut img = image(0);
        if let Some(s) = img.sections.iter_mut().find(|s| s.name == SECTION) {
            s.data.push(0);
        }
        assert!(ExTable::from_image(&img).is_err());
    }
}
