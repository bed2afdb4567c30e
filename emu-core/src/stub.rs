//! Functions the emulated code calls but does not contain: the kernel's C functions, stood in
//! for by the harness.
//!
//! An undefined symbol of the code that runs is bound either to data in harness memory or to
//! a stub. A stub is reached like any function (a call to its address, on IA-64 through a
//! function descriptor the linker synthesises); the core then runs the stub instead of
//! fetching, charges the cycles it states, and returns to the caller as the architecture's
//! return instruction would (IA-64: `br.ret` through b0 with ar.pfs; x86: `ret`; s390:
//! `br %r14`).
//!
//! Two kinds exist. A [`StubSpec`] from the harness file returns a fixed value at a stated
//! cost and optionally writes memory: enough for a function whose effect on the path is its
//! time. A [`Stub`] implementation is Rust code that does what the kernel's C does (the
//! accounting functions, each citing its source file and line), reading its arguments and
//! guest memory through [`StubCtx`].

use std::any::Any;
use std::fmt;

/// What a stub sees of the machine while it runs.
pub trait StubCtx {
    /// The `i`-th integer argument of the call (IA-64: in0.. of the callee's frame, that is
    /// the caller's out registers; x86-64: rdi, rsi, rdx, rcx, r8, r9; s390x: r2..r6).
    fn arg(&self, i: usize) -> u64;
    /// Reads `width` bytes (1, 2, 4 or 8) of guest memory.
    ///
    /// # Errors
    /// The address is not mapped or not readable.
    fn read(&mut self, addr: u64, width: u8) -> Result<u64, StubError>;
    /// Writes the low `width` bytes (1, 2, 4 or 8) of `value` to guest memory.
    ///
    /// # Errors
    /// The address is not mapped or not writable.
    fn write(&mut self, addr: u64, width: u8, value: u64) -> Result<(), StubError>;
    /// The model's clock at the call, in the unit the architecture's time-stamp counter counts
    /// (IA-64: ar.itc; x86-64: TSC; s390x: the TOD clock's CPU-timer units).
    fn now(&self) -> u64;
    /// The address of a symbol of the loaded image, if it has one.
    fn symbol(&self, name: &str) -> Option<u64>;
}

/// What a stub returns to its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StubReturn {
    /// The integer return value (IA-64 r8, x86-64 rax, s390x r2).
    pub value: u64,
    /// Cycles the call costs on the model, from entry to the return's target.
    pub cycles: u64,
}

/// Why a stub could not complete; the run stops with this message and the stub's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StubError(pub String);

impl fmt::Display for StubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StubError {}

/// A function written in Rust that stands in for one of the kernel's C functions.
pub trait Stub: fmt::Debug {
    /// The symbol this stub binds.
    fn name(&self) -> &str;
    /// Runs the function once.
    ///
    /// # Errors
    /// Guest memory it needs is not there, or its arguments make no sense.
    fn call(&mut self, ctx: &mut dyn StubCtx) -> Result<StubReturn, StubError>;
    /// The stub as [`Any`], so a scenario can read back what a stateful stub recorded (what
    /// the kernel reported, for example) after the run.
    fn as_any(&self) -> &dyn Any;
}

/// One memory write a harness stub makes each time it is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StubWrite {
    /// Guest address.
    pub address: u64,
    /// Bytes written: 1, 2, 4 or 8.
    pub width: u8,
    /// Value written.
    pub value: u64,
}

/// A stub described by the harness: a fixed return value, a stated cost, optional writes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StubSpec {
    /// The symbol it binds.
    pub name: String,
    /// Returned value.
    pub returns: u64,
    /// Cycles per call.
    pub cycles: u64,
    /// Writes made on every call, in order.
    pub writes: Vec<StubWrite>,
}

impl Stub for StubSpec {
    fn name(&self) -> &str {
        &self.name
    }

    fn call(&mut self, ctx: &mut dyn StubCtx) -> Result<StubReturn, StubError> {
        for w in &self.writes {
            ctx.write(w.address, w.width, w.value)?;
        }
        Ok(StubReturn { value: self.returns, cycles: self.cycles })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(Default)]
    struct FlatCtx {
        mem: BTreeMap<u64, u64>,
    }

    impl StubCtx for FlatCtx {
        fn arg(&self, _i: usize) -> u64 {
            0
        }
        fn read(&mut self, addr: u64, _width: u8) -> Result<u64, StubError> {
            self.mem.get(&addr).copied().ok_or_else(|| StubError(format!("{addr:#x} not mapped")))
        }
        fn write(&mut self, addr: u64, _width: u8, value: u64) -> Result<(), StubError> {
            self.mem.insert(addr, value);
            Ok(())
        }
        fn now(&self) -> u64 {
            0
        }
        fn symbol(&self, _name: &str) -> Option<u64> {
            None
        }
    }

    #[test]
    fn a_harness_stub_writes_then_returns_its_value_and_cost() {
        let mut stub = StubSpec {
            name: "ia64_handle_irq".into(),
            returns: 7,
            cycles: 40,
            writes: vec![StubWrite { address: 0x100, width: 8, value: 3 }],
        };
        let mut ctx = FlatCtx::default();
        let ret = stub.call(&mut ctx).unwrap();
        assert_eq!(ret, StubReturn { value: 7, cycles: 40 });
        assert_eq!(ctx.read(0x100, 8), Ok(3));
        assert!(stub.as_any().downcast_ref::<StubSpec>().is_some());
    }
}
