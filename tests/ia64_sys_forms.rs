//! Execution of the B-unit hints and M-system forms added with the TLB model (issue 12):
//! brp changes no architectural state, `alloc r1=i,l,o,r` (gas's form with ar.pfs implied) sets
//! the same frame as the ar.pfs form, with its rotating region. "SDM V3 x" is the instruction
//! page of x in the Intel Itanium Architecture Software Developer's Manual rev 2.3 vol. 3.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use helpers::{reg, run};

/// SDM V3 brp: a hint; the branch and predicate state and the next instruction are as without
/// it, whichever form (IP-relative or indirect, .imp or not).
#[test]
fn brp_is_a_hint() {
    let r = run("\tmov r8=1\n\tmovl r9=0x40 ;;\n\tmov b6=r9 ;;\n\
        \tbrp.sptk.imp t1,t2\n\tbrp.loop t1,t2\n\tbrp.ret.dptk b6,t1 ;;\n\
        t1:\n\tmov r8=2 ;;\nt2:\n\tadds r8=1,r8 ;;");
    assert_eq!(reg(&r, "r8"), 3, "execution fell through the hints");
    assert_eq!(reg(&r, "b6"), 0x40);
}

/// SDM V3 alloc: `alloc r1=i,l,o,r` is `alloc r1=ar.pfs,i,l,o,r`: the frame has i+l+o
/// registers (r40 is its last here, r41 outside it, where a write is an Illegal Operation),
/// and r1 gets ar.pfs.
#[test]
fn alloc_without_ar_pfs_sizes_the_frame() {
    let r = run("\talloc r8=2,3,4,8 ;;\n\tmov r40=7 ;;\n\tmov r9=r40\n\tmov ar.pfs=r8 ;;");
    assert_eq!(reg(&r, "r9"), 7);
    let cfg = arch_ia64::run::RunConfig::default();
    match helpers::exec_error("\talloc r8=2,3,4,8 ;;\n\tmov r41=7 ;;", &cfg) {
        arch_ia64::exec::ExecError::Unhandled { vector, .. } => assert_eq!(vector, 0x5400),
        other => panic!("expected an illegal operation, got {other:?}"),
    }
}
