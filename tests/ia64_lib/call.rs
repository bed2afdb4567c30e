//! Calling a routine of a linked image as a C caller would (IA-64 software conventions):
//! the arguments in the callee's first stacked registers (the caller's outputs, so the frame
//! the routine starts with is `sof = args`), gp = `__gp`, b0 = the default harness's sentinel,
//! ar.pfs holding the caller's frame; the preserved registers are set to random values and
//! must come back unchanged.
//!
//! The preserved set (Itanium Software Conventions and Runtime Architecture Guide, the
//! register usage tables): r1 (gp), r4-r7, r12 (sp), r13 (tp), f2-f5, f16-f31, p1-p5,
//! p16-p63, b1-b5, ar.pfs, ar.lc, ar.unat, ar.rsc, ar.ec (`br.ret` restores it from
//! ar.pfs.pec), and the register stack (ar.bsp and the caller's frame).

use arch_ia64::cpu::Ia64Cpu;
use arch_ia64::kernel_extable::{run_with_fixups, ExTable};
use arch_ia64::run::{prepare, RunConfig, DEFAULT_HARNESS, SENTINEL};
use arch_ia64::state::ar;
use arch_ia64::state::fr::Fr;
use emu_core::cpu::{Cpu, Machine, StopReason, StopWhen};
use emu_core::harness::Harness;
use emu_core::image::Image;
use emu_core::rng::Xorshift64;

/// Base of buffer region `i` (0..5); each is [`BUF_SIZE`] bytes with unmapped memory after it.
pub fn buf(i: u64) -> u64 {
    0x8000_0000 + i * 0x100_0000
}

/// Size of each buffer region.
pub const BUF_SIZE: u64 = 0x10000;

/// A data page for the variables the routines read (`ia64_i_cache_stride_shift`, ...).
pub const VARS: u64 = 0x8800_0000;

/// The default harness plus the buffers and the variable page.
fn harness_text() -> String {
    let mut t = String::from(DEFAULT_HARNESS);
    for i in 0..5 {
        t.push_str(&format!(
            "\n[[region]]\nname = \"buf{i}\"\nbase = \"{:#x}\"\nsize = \"{BUF_SIZE:#x}\"\nperms = \"rw\"\n",
            buf(i)
        ));
    }
    t.push_str(&format!("\n[[region]]\nname = \"vars\"\nbase = \"{VARS:#x}\"\nsize = \"0x1000\"\nperms = \"rw\"\n"));
    t
}

/// A linked image ready to call into.
pub struct Lib {
    /// The image.
    pub image: Image,
    /// Its exception table.
    pub extable: ExTable,
    cfg: RunConfig,
    /// Tells this image's machines apart in the per-thread cache (a machine is not `Send`).
    id: usize,
    gp: u64,
}

/// What a call returned.
#[derive(Debug, Clone)]
pub struct Returned {
    /// r8.
    pub r8: u64,
    /// Cycles on the Itanium 2 model from entry to the return.
    pub cycles: u64,
    /// Instructions executed.
    pub insns: u64,
    /// Faults the kernel's fault path handled: `__ex_table` fixups and psr.ed deferrals.
    pub fixups: usize,
    /// Of those, the deferrals (a speculative load or `lfetch.fault` re-run with psr.ed).
    pub deferred: usize,
    /// The preserved registers the call changed.
    pub clobbered: Vec<Clobber>,
}

impl Lib {
    /// A machine over `image` with the harness above, the Itanium 2 timing model on.
    pub fn new(image: Image) -> Lib {
        let harness = Harness::parse("<ia64-lib harness>", &harness_text()).expect("the harness parses");
        let cfg = RunConfig { harness: Some(harness), ..RunConfig::default() };
        prepare(&image, &cfg).unwrap_or_else(|e| panic!("cannot prepare the image: {e}"));
        let extable = ExTable::from_image(&image).expect("a well-formed __ex_table");
        let gp = image.symbol("__gp").map_or(0, |s| s.value);
        static IDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let id = IDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Lib { image, extable, cfg, id, gp }
    }

    /// The address of `name`.
    pub fn addr(&self, name: &str) -> u64 {
        self.image.symbol(name).unwrap_or_else(|| panic!("no symbol {name} in the linked image")).value
    }

    /// A fresh machine (memory as the harness maps it, state at reset): a copy of one
    /// prepared once per test thread.
    pub fn machine(&self) -> Machine<Ia64Cpu> {
        thread_local! {
            static BASES: std::cell::RefCell<std::collections::HashMap<usize, Machine<Ia64Cpu>>> =
                std::cell::RefCell::default();
        }
        BASES.with(|b| {
            b.borrow_mut()
                .entry(self.id)
                .or_insert_with(|| prepare(&self.image, &self.cfg).expect("prepared once already").0)
                .clone()
        })
    }
}

/// The ar.fpsr Linux gives every thread (`FPSR_DEFAULT` of arch/ia64/include/uapi/asm/fpu.h:
/// all traps disabled; sf0 64-bit precision, round to nearest; sf1 the same with widest-range
/// exponent; sf1-sf3 traps disabled), so the FP division runs as it does in the kernel.
pub const FPSR_DEFAULT: u64 = 0x0009_804c_0270_033f;

/// The preserved state compared around a call: (register, value), FRs as sign, exponent and
/// significand in one number.
type Preserved = Vec<(String, u128)>;

const PRESERVED_GR: [u8; 7] = [1, 4, 5, 6, 7, 12, 13];
const PRESERVED_FR: [usize; 20] = [2, 3, 4, 5, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31];
/// p1-p5 and p16-p63.
const PRESERVED_PR: u64 = 0x3e | !0xffff;
const PRESERVED_AR: [(u8, &str); 5] =
    [(ar::PFS, "ar.pfs"), (ar::LC, "ar.lc"), (ar::UNAT, "ar.unat"), (ar::RSC, "ar.rsc"), (ar::EC, "ar.ec")];

fn preserved(m: &Machine<Ia64Cpu>) -> Preserved {
    let st = &m.cpu.state;
    let mut out: Preserved =
        PRESERVED_GR.iter().map(|&r| (format!("r{r}"), u128::from(st.gr.read_or_zero(r).0))).collect();
    for f in PRESERVED_FR {
        let v = st.fr[f];
        out.push((format!("f{f}"), u128::from(v.sign) << 81 | u128::from(v.exp) << 64 | u128::from(v.sig)));
    }
    out.push(("pr (p1-p5, p16-p63)".into(), u128::from(st.pr & PRESERVED_PR)));
    for b in 1..6 {
        out.push((format!("b{b}"), u128::from(st.br[b])));
    }
    for (a, name) in PRESERVED_AR {
        out.push((name.into(), u128::from(st.ar[usize::from(a)])));
    }
    out.push(("ar.bsp".into(), u128::from(st.gr.bsp())));
    out.push(("cfm.sof".into(), u128::from(st.gr.cfm().sof)));
    out
}

/// How [`call`]'s error starts for a memory fault at an instruction `__ex_table` does not
/// list (the kernel would oops).
pub const OOPS: &str = "kernel oops, a fault no __ex_table entry covers";

/// A preserved register the call changed: (name, before, after).
pub type Clobber = (String, u128, u128);

impl Returned {
    /// `Err` naming every preserved register the call changed.
    pub fn preserved(&self) -> Result<(), String> {
        if self.clobbered.is_empty() {
            return Ok(());
        }
        let list: Vec<String> = self.clobbered.iter().map(|(n, b, a)| format!("{n} {b:#x} -> {a:#x}")).collect();
        Err(format!("preserved registers changed: {}", list.join(", ")))
    }
}

/// Calls `entry` with `args` on `m` (fresh from [`Lib::machine`] or after an earlier call),
/// the preserved registers randomised from `rng`; fixes faults up from the image's
/// exception table.
///
/// # Errors
/// An emulator error or a run that does not return (a changed preserved register is
/// reported in [`Returned::clobbered`]).
pub fn call(
    lib: &Lib,
    m: &mut Machine<Ia64Cpu>,
    entry: u64,
    args: &[u64],
    rng: &mut Xorshift64,
) -> Result<Returned, String> {
    let nargs = args.len() as u8;
    {
        let st = &mut m.cpu.state;
        // The caller's frame is its outputs only, so a return leaves the same frame.
        st.gr.alloc(0, 0, 0, &mut m.mem).map_err(|e| e.to_string())?;
        st.gr.alloc(nargs, 0, 0, &mut m.mem).map_err(|e| e.to_string())?;
        for (i, a) in args.iter().enumerate() {
            st.gr.write(32 + i as u8, *a, false).map_err(|e| e.to_string())?;
        }
        for r in [4u8, 5, 6, 7] {
            st.gr.write(r, rng.next_u64(), false).map_err(|e| e.to_string())?;
        }
        st.gr.write(1, lib.gp, false).map_err(|e| e.to_string())?;
        for f in PRESERVED_FR {
            st.fr[f] = Fr::integer(rng.next_u64());
        }
        st.pr = (rng.next_u64() & PRESERVED_PR) | 1;
        for b in 1..6 {
            st.br[b] = rng.next_u64() & !0xf;
        }
        st.br[0] = SENTINEL;
        st.ar[usize::from(ar::FPSR)] = FPSR_DEFAULT;
        st.ar[usize::from(ar::LC)] = rng.next_u64();
        st.ar[usize::from(ar::UNAT)] = rng.next_u64();
        let ec = rng.below(64);
        st.ar[usize::from(ar::EC)] = ec;
        // pfm = the caller's frame (sof = the arguments, no locals), pec = its ar.ec.
        st.ar[usize::from(ar::PFS)] = u64::from(nargs) | ec << 52;
    }
    m.cpu.set_entry(entry);
    let before = preserved(m);
    let (c0, i0) = (m.cpu.cycles(), m.cpu.instructions());
    let stop = StopWhen { on_sentinel: true, on_rfi: true, on_interruption: true, max_insns: 2_000_000 };
    let run = run_with_fixups(m, &lib.extable, &stop).map_err(|e| match e.error {
        // In the kernel, a fault at an instruction without an entry is an oops.
        arch_ia64::exec::ExecError::Memory { .. } => format!("{OOPS}: {e}"),
        _ => format!("emulator error: {e}"),
    })?;
    if !matches!(run.stop, StopReason::Sentinel) {
        return Err(format!("the routine did not return: {}", arch_ia64::run::stop_text(&run.stop)));
    }
    let clobbered =
        before.into_iter().zip(preserved(m)).filter(|(b, a)| b.1 != a.1).map(|(b, a)| (b.0, b.1, a.1)).collect();
    let st = &m.cpu.state;
    Ok(Returned {
        r8: st.gr.read_or_zero(8).0,
        cycles: m.cpu.cycles() - c0,
        insns: m.cpu.instructions() - i0,
        fixups: run.fixups.len(),
        deferred: run.fixups.iter().filter(|f| f.fix == arch_ia64::kernel_extable::DEFERRED).count(),
        clobbered,
    })
}

/// `len` bytes at `addr`.
pub fn read(m: &Machine<Ia64Cpu>, addr: u64, len: usize) -> Vec<u8> {
    let mut out = vec![0; len];
    m.mem.read_bytes(addr, &mut out).unwrap_or_else(|e| panic!("reading {addr:#x}: {e}"));
    out
}

/// Writes `data` at `addr`.
pub fn write(m: &mut Machine<Ia64Cpu>, addr: u64, data: &[u8]) {
    if data.is_empty() {
        return;
    }
    m.mem.write_bytes(addr, data).unwrap_or_else(|e| panic!("writing {addr:#x}: {e}"));
}
