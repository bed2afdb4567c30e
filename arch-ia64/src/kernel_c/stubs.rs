//! The accounting C as [`Stub`]s: one shared [`KernelState`] (config, layout, the log, the
//! tasks) behind every stub of a run, so the scenario reads the log back from any of them
//! (or from its own handle) after the run.
//!
//! - [`TickStub`] binds `ia64_handle_irq`: the timer interrupt's C ([`irq_c::timer_interrupt`]),
//!   after an optional inner stub that does the machine's part (EOI, re-arming cr.itm), and
//!   every `switch_every_ticks` ticks it sets TIF_NEED_RESCHED;
//! - [`ScheduleStub`] binds `preempt_schedule_irq`, which `ia64_leave_kernel` calls when
//!   TIF_NEED_RESCHED is set: a switch to the peer task and back;
//! - [`FunctionStub`] binds one accounting function by its own name (arg 0 the task).

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use emu_core::stub::{Stub, StubCtx, StubError, StubReturn};

use super::guest::PrivateMemory;
use super::irq_c::{self, CTiming};
use super::{cputime_c, time_c, AccountingLog, Cx, Guest, KernelCConfig, TaskLayout};

/// The task a switch runs in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Peer {
    /// Its task_struct address (in Rust-side memory: the emulated code never touches it).
    pub task: u64,
    /// Cycles it runs each time.
    pub cycles: u64,
    /// Whether it is the idle task (PF_IDLE: its time is idle time).
    pub idle: bool,
}

/// Everything the accounting stubs of one run share.
#[derive(Debug)]
pub struct KernelState {
    /// Config and clock.
    pub config: KernelCConfig,
    /// Field offsets of the tree.
    pub layout: TaskLayout,
    /// Costs of the C steps.
    pub timing: CTiming,
    /// What the kernel reported.
    pub log: AccountingLog,
    /// `current`: the task the emulated code runs as (ar.k6).
    pub current: u64,
    /// The task switched to, and its memory.
    pub peer: Peer,
    /// Set TIF_NEED_RESCHED every this many ticks (`None`: never).
    pub switch_every_ticks: Option<u64>,
    /// Ticks so far.
    pub ticks: u64,
    /// The interrupted context's pt_regs, for a tick stub bound where the regs are not an
    /// argument ([`TickStub::binding`]).
    pub pt_regs: Option<u64>,
    private: PrivateMemory,
}

/// A handle on the shared state.
pub type Shared = Rc<RefCell<KernelState>>;

impl KernelState {
    /// State for `current`, with `peer`'s task and thread_info set up in Rust memory.
    ///
    /// # Errors
    /// The layout puts the peer's fields outside its block (never for a real layout).
    pub fn new(
        config: KernelCConfig,
        layout: TaskLayout,
        timing: CTiming,
        current: u64,
        peer: Peer,
        switch_every_ticks: Option<u64>,
    ) -> Result<Shared, StubError> {
        let mut private = PrivateMemory::default();
        let len = layout.task_size.saturating_add(layout.ti_u64.iter().map(|f| f.1 + 8).max().unwrap_or(32)).max(64);
        private.add_block(peer.task, usize::try_from(len).map_err(|e| StubError(e.to_string()))?);
        if peer.idle {
            let flags = u32::try_from(cputime_c::PF_IDLE).unwrap_or(2);
            private.poke(peer.task.wrapping_add(layout.task_flags), &flags.to_le_bytes())?;
        }
        Ok(Rc::new(RefCell::new(KernelState {
            config,
            layout,
            timing,
            log: AccountingLog::default(),
            current,
            peer,
            switch_every_ticks,
            ticks: 0,
            pt_regs: None,
            private,
        })))
    }

    /// Runs `f` on a [`Cx`] over `ctx` (and the peer's memory) and returns its result with the
    /// cycles the C took.
    fn run<R>(
        &mut self,
        ctx: &mut dyn StubCtx,
        f: impl FnOnce(&mut Cx<'_, '_>, &CTiming) -> Result<R, StubError>,
    ) -> Result<(R, u64), StubError> {
        let KernelState { config, layout, timing, log, current, private, .. } = self;
        let mut g = Guest::with_private(ctx, private);
        let mut cx = Cx { guest: &mut g, layout, config, log, current: *current };
        let r = f(&mut cx, timing)?;
        *current = cx.current;
        Ok((r, g.elapsed()))
    }

    /// `task`'s thread_info `__u64` accounting fields as they are now, by name; `read`
    /// reads guest memory (the peer's comes from the Rust side).
    pub fn thread_info(&self, task: u64, mut read: impl FnMut(u64) -> Option<u64>) -> Vec<(&'static str, Option<u64>)> {
        self.layout
            .ti_u64
            .iter()
            .map(|&(name, off)| {
                let addr = task.wrapping_add(self.layout.task_size).wrapping_add(off);
                let mine = self.private.peek8(addr);
                (name, mine.or_else(|| read(addr)))
            })
            .collect()
    }
}

/// `ia64_handle_irq`: the timer interrupt's accounting C.
///
/// A harness whose own `ia64_handle_irq` (the vector loop, EOI, re-arming cr.itm) calls a C
/// function for the timer instead binds this stub there with [`TickStub::binding`]: then the
/// arguments are `(irq, dev_id)` as for `timer_interrupt`, and pt_regs is the fixed address
/// the interrupted user context's registers are saved at.
pub struct TickStub {
    state: Shared,
    inner: Option<Box<dyn Stub>>,
    name: String,
    bound: bool,
    value: Option<u64>,
}

impl std::fmt::Debug for TickStub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TickStub").field("inner", &self.inner).finish_non_exhaustive()
    }
}

impl TickStub {
    /// The stub, running `inner` first (the harness's own `ia64_handle_irq` for the machine's
    /// side: its value is returned and its cycles are part of the handler's).
    pub fn new(state: Shared, inner: Option<Box<dyn Stub>>) -> TickStub {
        TickStub { state, inner, name: "ia64_handle_irq".into(), bound: false, value: None }
    }

    /// The same C bound to `name` (`timer_interrupt`), with pt_regs at
    /// [`KernelState::pt_regs`] (where the tick's entry saved them: the top of the kernel
    /// stack), returning `value` (IRQ_HANDLED is 1, `include/linux/irqreturn.h:13`). No
    /// vector is checked: the caller dispatched it.
    pub fn binding(mut self, name: &str, value: u64) -> TickStub {
        self.name = name.to_string();
        self.bound = true;
        self.value = Some(value);
        self
    }

    /// The shared state.
    pub fn state(&self) -> &Shared {
        &self.state
    }
}

impl Stub for TickStub {
    fn name(&self) -> &str {
        &self.name
    }

    fn call(&mut self, ctx: &mut dyn StubCtx) -> Result<StubReturn, StubError> {
        let vector = ctx.arg(0);
        let regs = if self.bound {
            self.state.borrow().pt_regs.ok_or_else(|| {
                StubError(format!("{}: the scenario did not say where pt_regs is (KernelState::pt_regs)", self.name))
            })?
        } else {
            ctx.arg(1)
        };
        if !self.bound && vector != irq_c::IA64_TIMER_VECTOR {
            return Err(StubError(format!(
                "ia64_handle_irq: vector {vector:#x} is not the timer's ({:#x}); only the tick is modelled",
                irq_c::IA64_TIMER_VECTOR
            )));
        }
        let inner = match self.inner.as_mut() {
            Some(s) => s.call(ctx)?,
            None => StubReturn::default(),
        };
        let mut st = self.state.borrow_mut();
        st.ticks += 1;
        let resched = st.switch_every_ticks.is_some_and(|n| n > 0 && st.ticks.is_multiple_of(n));
        let ((), cycles) = st.run(ctx, |cx, t| {
            let t = CTiming { to_tick: t.to_tick.wrapping_add(inner.cycles), ..*t };
            irq_c::timer_interrupt(cx, regs, &t)?;
            if resched {
                irq_c::set_need_resched(cx, cx.current)?;
            }
            Ok(())
        })?;
        Ok(StubReturn { value: self.value.unwrap_or(inner.value), cycles })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `preempt_schedule_irq`: a switch to the peer and back.
#[derive(Debug)]
pub struct ScheduleStub {
    state: Shared,
}

impl ScheduleStub {
    /// The stub.
    pub fn new(state: Shared) -> ScheduleStub {
        ScheduleStub { state }
    }
}

impl Stub for ScheduleStub {
    fn name(&self) -> &str {
        "preempt_schedule_irq"
    }

    fn call(&mut self, ctx: &mut dyn StubCtx) -> Result<StubReturn, StubError> {
        let mut st = self.state.borrow_mut();
        let peer = st.peer;
        let (_, cycles) = st.run(ctx, |cx, t| irq_c::switch_round_trip(cx, peer.task, peer.cycles, t))?;
        Ok(StubReturn { value: 0, cycles })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One accounting function bound by its own symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    /// `vtime_flush(tsk)`.
    VtimeFlush,
    /// `vtime_account_kernel(tsk)`.
    VtimeAccountKernel,
    /// `vtime_account_idle(tsk)`.
    VtimeAccountIdle,
    /// `vtime_account_softirq(tsk)`.
    VtimeAccountSoftirq,
    /// `vtime_account_hardirq(tsk)`.
    VtimeAccountHardirq,
    /// `vtime_account_irq(tsk, offset)`.
    VtimeAccountIrq,
    /// `arch_vtime_task_switch(prev)`.
    ArchVtimeTaskSwitch,
    /// `vtime_task_switch(prev)`.
    VtimeTaskSwitch,
    /// `account_process_tick(p, user_tick)`.
    AccountProcessTick,
}

impl Function {
    /// Every function.
    pub const ALL: [Function; 9] = [
        Function::VtimeFlush,
        Function::VtimeAccountKernel,
        Function::VtimeAccountIdle,
        Function::VtimeAccountSoftirq,
        Function::VtimeAccountHardirq,
        Function::VtimeAccountIrq,
        Function::ArchVtimeTaskSwitch,
        Function::VtimeTaskSwitch,
        Function::AccountProcessTick,
    ];

    /// Its symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            Function::VtimeFlush => "vtime_flush",
            Function::VtimeAccountKernel => "vtime_account_kernel",
            Function::VtimeAccountIdle => "vtime_account_idle",
            Function::VtimeAccountSoftirq => "vtime_account_softirq",
            Function::VtimeAccountHardirq => "vtime_account_hardirq",
            Function::VtimeAccountIrq => "vtime_account_irq",
            Function::ArchVtimeTaskSwitch => "arch_vtime_task_switch",
            Function::VtimeTaskSwitch => "vtime_task_switch",
            Function::AccountProcessTick => "account_process_tick",
        }
    }
}

/// A stub for one [`Function`]: arg 0 is the task, arg 1 the offset or `user_tick`.
#[derive(Debug)]
pub struct FunctionStub {
    state: Shared,
    function: Function,
}

impl FunctionStub {
    /// The stub.
    pub fn new(state: Shared, function: Function) -> FunctionStub {
        FunctionStub { state, function }
    }
}

impl Stub for FunctionStub {
    fn name(&self) -> &str {
        self.function.symbol()
    }

    fn call(&mut self, ctx: &mut dyn StubCtx) -> Result<StubReturn, StubError> {
        let (tsk, a1) = (ctx.arg(0), ctx.arg(1));
        let function = self.function;
        let mut st = self.state.borrow_mut();
        let native = st.config.native;
        let ((), _) = st.run(ctx, |cx, t| {
            let needs_native = !matches!(
                function,
                Function::AccountProcessTick | Function::VtimeTaskSwitch | Function::VtimeAccountIrq
            );
            if needs_native && !native {
                return Err(StubError(format!(
                    "{} does not exist without CONFIG_VIRT_CPU_ACCOUNTING_NATIVE",
                    function.symbol()
                )));
            }
            cx.guest.spend(t.call);
            match function {
                Function::VtimeFlush => time_c::vtime_flush(cx, tsk),
                Function::VtimeAccountKernel => time_c::vtime_account_kernel(cx, tsk),
                Function::VtimeAccountIdle => time_c::vtime_account_idle(cx, tsk),
                Function::VtimeAccountSoftirq => time_c::vtime_account_softirq(cx, tsk),
                Function::VtimeAccountHardirq => time_c::vtime_account_hardirq(cx, tsk),
                Function::VtimeAccountIrq => cputime_c::vtime_account_irq(cx, tsk, a1),
                Function::ArchVtimeTaskSwitch => time_c::arch_vtime_task_switch(cx, tsk),
                Function::VtimeTaskSwitch => cputime_c::vtime_task_switch(cx, tsk),
                Function::AccountProcessTick => cputime_c::account_process_tick(cx, tsk, a1 != 0),
            }
        })?;
        Ok(StubReturn { value: 0, cycles: st.timing.call })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The stubs a run binds: the tick (with `inner_tick` for the machine's side), the switch,
/// and every accounting function by its own name.
pub fn all(state: &Shared, inner_tick: Option<Box<dyn Stub>>) -> Vec<Box<dyn Stub>> {
    let mut out: Vec<Box<dyn Stub>> =
        vec![Box::new(TickStub::new(state.clone(), inner_tick)), Box::new(ScheduleStub::new(state.clone()))];
    out.extend(Function::ALL.iter().map(|&f| Box::new(FunctionStub::new(state.clone(), f)) as Box<dyn Stub>));
    out
}

#[cfg(test)]
mod tests {
    use super::super::guest::testing::FlatCtx;
    use super::super::layout::testing;
    use super::super::Sink;
    use super::*;
    use emu_core::stub::{StubSpec, StubWrite};

    const TASK: u64 = 0xe000_0000_0100_0000;
    const REGS: u64 = TASK + 0x8000 - 448;

    #[test]
    fn ticks_from_user_then_a_switch_every_second_tick_through_the_stubs() {
        let state = KernelState::new(
            KernelCConfig::default(),
            testing::v2(),
            CTiming::default(),
            TASK,
            Peer { task: 0xe000_0000_0900_0000, cycles: 10_000, idle: true },
            Some(2),
        )
        .unwrap();
        let eoi = StubSpec {
            name: "ia64_handle_irq".into(),
            returns: 0,
            cycles: 77,
            writes: vec![StubWrite { address: TASK + 0x7000, width: 8, value: 1 }],
        };
        let mut stubs = all(&state, Some(Box::new(eoi)));
        let mut ctx = FlatCtx { now: 1_000_000, args: vec![0xef, REGS], ..FlatCtx::default() };
        ctx.map(TASK, 0x8000);
        ctx.write(REGS + 64, 8, 3 << 32).unwrap();
        let t = CTiming::default();
        let handler = t.irq_enter + t.to_tick + 77 + t.to_irq_exit + t.to_softirq + t.softirq + t.irq_return;
        for i in 0..2 {
            let r = stubs[0].call(&mut ctx).unwrap();
            assert_eq!(r.cycles, handler);
            ctx.now += r.cycles + 100_000;
            let resched = ctx.read(TASK + 0x1000 + 8, 4).unwrap() & 2 != 0;
            assert_eq!(resched, i == 1);
        }
        assert_eq!(ctx.read(TASK + 0x7000, 8), Ok(1), "the inner stub ran");
        let r = stubs[1].call(&mut ctx).unwrap();
        assert_eq!(r.cycles, 2 * (t.switch + t.switch_return) + 10_000);
        assert_eq!(ctx.read(TASK + 0x1000 + 8, 4), Ok(0));
        let st = state.borrow();
        assert_eq!(st.log.switches.len(), 1);
        assert!(st
            .log
            .reports
            .iter()
            .any(|r| r.sink == Sink::IdleTime && r.cycles == Some(10_000 + t.switch_return + t.switch)));
        // The peer's thread_info reads back from the Rust side.
        let peer = st.thread_info(st.peer.task, |_| None);
        assert_eq!(peer.iter().find(|f| f.0 == "idle_time").map(|f| f.1), Some(Some(0)));
        // Another vector is refused with its number.
        drop(st);
        ctx.args = vec![0xd0, REGS];
        let e = stubs[0].call(&mut ctx).unwrap_err();
        assert!(e.0.contains("vector 0xd0"), "{e}");
        assert_eq!(stubs.iter().map(|s| s.name().to_string()).filter(|n| n.starts_with("vtime_")).count(), 7);
        assert!(stubs[2].as_any().downcast_ref::<FunctionStub>().is_some());
    }

    #[test]
    fn bound_as_timer_interrupt_it_reads_the_fixed_pt_regs_and_returns_irq_handled() {
        let state = KernelState::new(
            KernelCConfig { native: false, ..KernelCConfig::default() },
            testing::v2(),
            CTiming::default(),
            TASK,
            Peer { task: 0x9000_0000, cycles: 0, idle: false },
            None,
        )
        .unwrap();
        let mut s = TickStub::new(state.clone(), None).binding("timer_interrupt", 1);
        assert_eq!(s.name(), "timer_interrupt");
        let mut ctx = FlatCtx { args: vec![0xef, 0], ..FlatCtx::default() };
        assert!(s.call(&mut ctx).unwrap_err().0.contains("KernelState::pt_regs"));
        state.borrow_mut().pt_regs = Some(REGS);
        ctx.map(TASK, 0x8000);
        ctx.write(REGS + 64, 8, 3 << 32).unwrap();
        assert_eq!(s.call(&mut ctx).unwrap().value, 1);
        ctx.write(REGS + 64, 8, 0).unwrap();
        s.call(&mut ctx).unwrap();
        let st = state.borrow();
        assert_eq!((st.log.utime(TASK), st.log.stime(TASK)), (4_000_000, 4_000_000));
    }

    #[test]
    fn a_function_stub_of_the_native_code_refuses_a_tree_without_it() {
        let config = KernelCConfig { native: false, ..KernelCConfig::default() };
        let state = KernelState::new(
            config,
            testing::v2(),
            CTiming::default(),
            TASK,
            Peer { task: 0x9000_0000, cycles: 0, idle: false },
            None,
        )
        .unwrap();
        let mut s = FunctionStub::new(state.clone(), Function::VtimeFlush);
        let mut ctx = FlatCtx { args: vec![TASK], ..FlatCtx::default() };
        ctx.map(TASK, 0x8000);
        let e = s.call(&mut ctx).unwrap_err();
        assert_eq!(e.0, "vtime_flush does not exist without CONFIG_VIRT_CPU_ACCOUNTING_NATIVE");
        let mut tick = FunctionStub::new(state.clone(), Function::AccountProcessTick);
        ctx.args = vec![TASK, 1];
        tick.call(&mut ctx).unwrap();
        assert_eq!(state.borrow().log.utime(TASK), 4_000_000);
    }
}
