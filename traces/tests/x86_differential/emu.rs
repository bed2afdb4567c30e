//! One x86 trace in the emulator, reused across cases: its committed object loaded with its
//! externs resolved to the harness's regions (as `acctemu scenario` loads it), the harness
//! applied, the TSC pinned (ratio 0, so rdtsc returns `tsc_offset`, set per call), and helpers
//! to lay out and dump memory as the native drivers do (dump.h).

use std::collections::HashMap;
use std::fmt::Write as _;

use arch_x86::cpu::X86Cpu;
use arch_x86::run::{load_object_with, prepare, RunConfig, SENTINEL};
use emu_core::cpu::{Machine, StopReason, StopWhen};
use emu_core::harness::Harness;
use emu_core::image::Image;
use emu_core::memory::Perms;
use traces::Trace;

/// A named object pointers are printed against: (name, address, size).
pub type Object = (&'static str, u64, u64);

/// The emulator with one trace loaded.
pub struct Emu {
    image: Image,
    /// The machine, memory included.
    pub machine: Machine<X86Cpu>,
    rsp: u64,
    names: HashMap<String, u64>,
}

impl Emu {
    /// Loads `t`'s committed object on its own harness.
    pub fn new(t: &Trace) -> Emu {
        let harness = Harness::parse(t.harness_name, t.harness).unwrap_or_else(|d| panic!("{}: {d}", t.name));
        let outer = |name: &str| (name == "sentinel").then_some(SENTINEL);
        let env = harness.env(&outer).unwrap_or_else(|d| panic!("{}: {d}", t.name));
        let names: HashMap<String, u64> =
            harness.regions.iter().filter_map(|r| env.lookup(&r.name).map(|a| (r.name.clone(), a))).collect();
        let bytes = t.object.unwrap_or_else(|| panic!("{} has no object", t.name));
        let image = load_object_with(bytes, &|n| env.lookup(n)).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        let cfg = RunConfig {
            harness: Some(harness.clone()),
            timing: false,
            options: arch_x86::run::X86Options { tsc_ratio: Some((0, 1)), ..Default::default() },
            ..RunConfig::default()
        };
        let (machine, _) = prepare(&image, &cfg).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        let rsp = machine.cpu.state.reg(4);
        Emu { image, machine, rsp, names }
    }

    /// The address of harness region `name`.
    pub fn region(&self, name: &str) -> u64 {
        *self.names.get(name).unwrap_or_else(|| panic!("the harness has no region `{name}`"))
    }

    /// Maps a zeroed read-write region the harness does not have.
    pub fn map(&mut self, base: u64, size: u64, name: &str) {
        self.machine.mem.map(base, size, Perms::RW, name).unwrap_or_else(|e| panic!("map {name}: {e}"));
    }

    /// Zeroes `size` bytes at `addr`.
    pub fn zero(&mut self, addr: u64, size: usize) {
        self.machine.mem.write_bytes(addr, &vec![0; size]).unwrap_or_else(|e| panic!("zero {addr:#x}: {e}"));
    }

    /// Stores a 64-bit word.
    pub fn w64(&mut self, addr: u64, v: u64) {
        self.machine.mem.write_u64(addr, v).unwrap_or_else(|e| panic!("store {addr:#x}: {e}"));
    }

    /// Stores a 32-bit word.
    pub fn w32(&mut self, addr: u64, v: u64) {
        self.machine.mem.write_u32(addr, v as u32).unwrap_or_else(|e| panic!("store {addr:#x}: {e}"));
    }

    /// Reads a 64-bit word.
    pub fn r64(&self, addr: u64) -> u64 {
        self.machine.mem.read_u64(addr).unwrap_or_else(|e| panic!("load {addr:#x}: {e}"))
    }

    /// Calls `entry` with the SysV arguments `args` and the TSC reading `tsc`; the value in rax
    /// when it returns to the sentinel.
    pub fn call(&mut self, entry: &str, args: &[u64], tsc: u64) -> Result<u64, String> {
        let addr = self.image.symbol(entry).ok_or_else(|| format!("no symbol {entry}"))?.value;
        let st = &mut self.machine.cpu.state;
        for (reg, v) in [7u8, 6, 2, 1, 8, 9].into_iter().zip(args) {
            st.set_reg(reg, *v);
        }
        st.set_reg(4, self.rsp);
        st.rflags = 0x202;
        st.tsc_offset = tsc;
        self.machine.mem.write_u64(self.rsp, SENTINEL).map_err(|e| e.to_string())?;
        self.machine.cpu.set_entry(addr);
        let stop = StopWhen { max_insns: 200_000, ..StopWhen::default() };
        match self.machine.run(&stop) {
            Ok(StopReason::Sentinel) => Ok(self.machine.cpu.state.reg(0)),
            Ok(other) => Err(format!("{entry} stopped: {other}")),
            Err(e) => Err(format!("{entry}: {e}")),
        }
    }

    /// dump.h's dump_struct: ` label:` and the words of `size` bytes at `addr`.
    pub fn dump_struct(&self, out: &mut String, label: &str, addr: u64, size: u64, ptrs: &[u64], objs: &[Object]) {
        let _ = write!(out, " {label}:");
        self.dump_words(out, addr, size, ptrs, objs);
    }

    /// dump.h's dump_words: pointer words as `object+offset`, `0` or `?hex`, the rest in hex.
    pub fn dump_words(&self, out: &mut String, addr: u64, size: u64, ptrs: &[u64], objs: &[Object]) {
        for off in (0..size).step_by(8) {
            let w = self.r64(addr + off);
            if !ptrs.contains(&off) {
                let _ = write!(out, " {w:x}");
            } else if w == 0 {
                out.push_str(" 0");
            } else if let Some((name, base, _)) = objs.iter().find(|(_, b, s)| w >= *b && w - b < *s) {
                let _ = write!(out, " {name}+{:x}", w - base);
            } else {
                let _ = write!(out, " ?{w:x}");
            }
        }
    }
}
