//! The loops of `acctemu bench` (`traces/bench/`): a tight ALU loop and a load/store/call loop
//! per core. The IA-64 ones are source, assembled by acctemu's assembler when they run; the
//! x86-64 and s390x ones are the objects `traces/bench/build.sh` makes from their assembly.
//!
//! Each file defines `alu` and `mem`, taking the iteration count (at least 1) in the core's
//! count register ([`Loops::count_register`]), and the labels `alu_loop`, `alu_done`,
//! `mem_loop`, `mem_done` and `leaf` that split them into blocks run once or once per iteration.

/// One core's pair of loops.
#[derive(Debug, Clone, Copy)]
pub struct Loops {
    /// File name of the source under `traces/bench/`.
    pub source_name: &'static str,
    /// The assembly source.
    pub source: &'static str,
    /// The committed object (`None`: the source is assembled by acctemu itself).
    pub object: Option<&'static [u8]>,
    /// The register the iteration count is passed in.
    pub count_register: &'static str,
}

/// The entry symbol of the ALU loop.
pub const ALU: &str = "alu";
/// The entry symbol of the load/store/call loop.
pub const MEM: &str = "mem";

/// IA-64: ar.lc counts, r14 carries the count in.
pub const IA64: Loops = Loops {
    source_name: "ia64_loops.S",
    source: include_str!("../bench/ia64_loops.S"),
    object: None,
    count_register: "r14",
};

/// x86-64: the count in rdi (the SysV first argument), counted down by `dec`/`jnz`.
pub const X86_64: Loops = Loops {
    source_name: "x86_loops.S",
    source: include_str!("../bench/x86_loops.S"),
    object: Some(include_bytes!("../bench/obj/x86-loops.o")),
    count_register: "rdi",
};

/// s390x: the count in r2 (the ELF ABI's first argument), counted down by `brctg`.
pub const S390X: Loops = Loops {
    source_name: "s390_loops.S",
    source: include_str!("../bench/s390_loops.S"),
    object: Some(include_bytes!("../bench/obj/s390-loops.o")),
    count_register: "r2",
};
