//! Stubs in the IA-64 core: when the ip reaches a stub's entry (a bundle of the stub page the
//! linker synthesised, see [`emu_core::link`]), the core runs the [`Stub`] instead of fetching,
//! sets r8 to its value, charges its cycles, and returns as `br.ret.sptk.many b0` would.
//!
//! The arguments are in0.. of the stub's frame: after the caller's `br.call` they are r32..
//! (the caller's out registers). The return restores CFM from ar.pfs.pfm, EC from ar.pfs.pec
//! and raises the privilege level to ar.pfs.ppl when lower, as `br.ret` does, and branches to
//! b0. The cycles are charged as work outside instructions (the open issue group ends), and
//! the profile charges them to a group keyed by the stub's entry address (the stub's symbol).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::rc::Rc;

use emu_core::link::StubEntry;
use emu_core::memory::Memory;
use emu_core::stub::{Stub, StubCtx, StubError, StubReturn};

use crate::exec::ExecError;
use crate::state::{ar, State};

/// PFS.pfm (37:0).
const PFM_MASK: u64 = (1 << 38) - 1;

/// The stubs a run has, by entry address.
pub struct StubTable {
    by_entry: BTreeMap<u64, usize>,
    stubs: Vec<Box<dyn Stub>>,
    calls: Vec<u64>,
    symbols: HashMap<String, u64>,
    range: (u64, u64),
}

impl fmt::Debug for StubTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StubTable").field("by_entry", &self.by_entry).field("stubs", &self.stubs).finish()
    }
}

/// A stub table shared by clones of a CPU (a stub's state is the run's, not the copy's).
pub type SharedStubs = Rc<RefCell<StubTable>>;

impl StubTable {
    /// Binds each entry of `entries` to the stub of the same [`Stub::name`]; `symbols` are
    /// the image's, for [`StubCtx::symbol`].
    ///
    /// # Errors
    /// An entry with no stub, a stub with no entry, or two stubs of one name (by name).
    pub fn new(
        entries: &[StubEntry],
        stubs: Vec<Box<dyn Stub>>,
        symbols: HashMap<String, u64>,
    ) -> Result<StubTable, String> {
        let mut by_entry = BTreeMap::new();
        for e in entries {
            let mut found = stubs.iter().enumerate().filter(|(_, s)| s.name() == e.name);
            let Some((i, _)) = found.next() else {
                return Err(format!("symbol `{}` is bound to a stub, but no stub of that name is given", e.name));
            };
            if found.next().is_some() {
                return Err(format!("two stubs are given for `{}`", e.name));
            }
            by_entry.insert(e.entry, i);
        }
        if let Some(s) = stubs.iter().find(|s| !entries.iter().any(|e| e.name == s.name())) {
            return Err(format!("stub `{}` has no entry in the linked image (link with it in the bindings)", s.name()));
        }
        let lo = by_entry.keys().next().copied().unwrap_or(0);
        let hi = by_entry.keys().next_back().map_or(0, |h| h + 16);
        let calls = vec![0; stubs.len()];
        Ok(StubTable { by_entry, stubs, calls, symbols, range: (lo, hi) })
    }

    /// Whether `ip` is a stub entry (a cheap range test first: this runs every step).
    pub fn is_entry(&self, ip: u64) -> bool {
        ip >= self.range.0 && ip < self.range.1 && self.by_entry.contains_key(&ip)
    }

    /// The stubs, for reading back what a stateful stub recorded.
    pub fn stubs(&self) -> &[Box<dyn Stub>] {
        &self.stubs
    }

    /// Calls made to each stub, by name.
    pub fn calls(&self) -> Vec<(String, u64)> {
        self.stubs.iter().zip(&self.calls).map(|(s, c)| (s.name().to_string(), *c)).collect()
    }

    /// Runs the stub at `ip`: its value and cost, or its error.
    ///
    /// # Errors
    /// [`ExecError::Stub`] with the stub's message.
    pub fn call(&mut self, ip: u64, state: &State, mem: &mut Memory, now: u64) -> Result<StubReturn, ExecError> {
        let Some(&i) = self.by_entry.get(&ip) else {
            return Err(ExecError::Stub { pc: ip, name: String::new(), message: "no stub here".into() });
        };
        let symbols = &self.symbols;
        let Some(stub) = self.stubs.get_mut(i) else {
            return Err(ExecError::Stub { pc: ip, name: String::new(), message: "no stub here".into() });
        };
        let mut ctx = Ctx { state, mem, now, symbols };
        let ret =
            stub.call(&mut ctx).map_err(|e| ExecError::Stub { pc: ip, name: stub.name().to_string(), message: e.0 })?;
        if let Some(c) = self.calls.get_mut(i) {
            *c += 1;
        }
        Ok(ret)
    }

    /// The name of the stub at `ip`.
    pub fn name_at(&self, ip: u64) -> String {
        self.by_entry.get(&ip).and_then(|i| self.stubs.get(*i)).map_or_else(String::new, |s| s.name().to_string())
    }
}

/// What a stub sees: the caller's out registers, guest memory, the clock, the symbols.
struct Ctx<'a> {
    state: &'a State,
    mem: &'a mut Memory,
    now: u64,
    symbols: &'a HashMap<String, u64>,
}

impl StubCtx for Ctx<'_> {
    fn arg(&self, i: usize) -> u64 {
        let r = u8::try_from(32 + i).unwrap_or(u8::MAX);
        self.state.gr.read_or_zero(r).0
    }

    fn read(&mut self, addr: u64, width: u8) -> Result<u64, StubError> {
        check_width(width)?;
        self.mem.read_sized(addr, usize::from(width)).map_err(|f| StubError(f.to_string()))
    }

    fn write(&mut self, addr: u64, width: u8, value: u64) -> Result<(), StubError> {
        check_width(width)?;
        self.mem.write_sized(addr, usize::from(width), value).map_err(|f| StubError(f.to_string()))
    }

    fn now(&self) -> u64 {
        self.now
    }

    fn symbol(&self, name: &str) -> Option<u64> {
        self.symbols.get(name).copied()
    }
}

fn check_width(width: u8) -> Result<(), StubError> {
    if matches!(width, 1 | 2 | 4 | 8) {
        Ok(())
    } else {
        Err(StubError(format!("access width {width} is not 1, 2, 4 or 8")))
    }
}

/// The stub's return: r8 = `value`, then `br.ret b0`'s frame and privilege restore. Returns
/// the target (b0 without its low bits).
///
/// # Errors
/// A register-stack fill that faults, as [`ExecError::Stub`] naming the stub.
pub fn return_from_stub(
    state: &mut State,
    mem: &mut Memory,
    value: u64,
    ip: u64,
    name: &str,
) -> Result<u64, ExecError> {
    let err = |message: String| ExecError::Stub { pc: ip, name: name.to_string(), message };
    state.gr.write(8, value, false).map_err(|e| err(format!("writing r8: {e}")))?;
    let target = state.br[0] & !0xF;
    let pfs = state.ar[ar::PFS as usize];
    state.gr.ret(pfs & PFM_MASK, mem).map_err(|e| err(format!("returning through ar.pfs: {e}")))?;
    state.ar[ar::EC as usize] = (pfs >> 52) & 0x3F;
    let ppl = (pfs >> 62) as u8;
    if state.psr.cpl() < ppl {
        state.psr = state.psr.with_cpl(ppl);
    }
    Ok(target)
}
