//! Execution of vmsw (issue 12). SDM rev 2.3 vol. 3 p. 3:273: "Implementation of PSR.vm is
//! optional. If it is not implemented, this instruction takes Illegal Operation fault", and its
//! Operation tests `implemented_vm()` before the privilege level. The Itanium 2 modelled
//! (Madison, whose cpuid the model reports) has no virtual machine features, so both forms
//! fault with the General Exception vector's Illegal Operation.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::exec::ExecError;
use arch_ia64::run::RunConfig;

#[test]
fn vmsw_is_an_illegal_operation_on_itanium2() {
    for src in ["\tvmsw.0 ;;", "\tvmsw.1 ;;", "\tmov r8=1 ;;\n\tvmsw.1\n\tmov r9=2 ;;"] {
        match helpers::exec_error(src, &RunConfig::default()) {
            ExecError::Unhandled { vector, .. } => assert_eq!(vector, 0x5400, "{src}"),
            other => panic!("{src}: expected an Illegal Operation fault, got {other:?}"),
        }
    }
}
