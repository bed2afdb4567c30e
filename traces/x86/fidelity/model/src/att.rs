//! The instructions a call executed, as AT&T text for llvm-mca: one line per executed
//! instruction, in execution order (loops unrolled, callees inlined), so that llvm-mca's
//! straight-line view of the block is the call's real dynamic path. Direct branch and call
//! targets become one label defined after the block: llvm-mca does not follow control flow, and
//! absolute addresses would not assemble.

use emu_core::memory::Memory;
use iced_x86::{Decoder, DecoderOptions, FlowControl, Formatter, GasFormatter, Instruction, OpKind};

use crate::error::ModelError;

/// The label every direct branch names.
const TARGET: &str = ".Lfid_target";

/// Longest x86 instruction.
const MAX_LEN: usize = 15;

fn decode_at(mem: &Memory, pc: u64) -> Result<Instruction, ModelError> {
    // The last bytes of a section may sit near the end of its mapping: shrink until readable.
    let mut len = MAX_LEN;
    let mut buf = [0u8; MAX_LEN];
    loop {
        let window = buf.get_mut(..len).ok_or_else(|| ModelError::Listing(format!("{pc:#x}: bad window")))?;
        if mem.read_bytes(pc, window).is_ok() {
            break;
        }
        if len == 1 {
            return Err(ModelError::Listing(format!("{pc:#x}: not readable")));
        }
        len -= 1;
    }
    let bytes = buf.get(..len).ok_or_else(|| ModelError::Listing(format!("{pc:#x}: bad window")))?;
    let mut decoder = Decoder::with_ip(64, bytes, pc, DecoderOptions::NONE);
    let insn = decoder.decode();
    if insn.is_invalid() {
        return Err(ModelError::Listing(format!("{pc:#x}: does not decode")));
    }
    Ok(insn)
}

fn is_direct_branch(insn: &Instruction) -> bool {
    matches!(insn.flow_control(), FlowControl::ConditionalBranch | FlowControl::UnconditionalBranch | FlowControl::Call)
        && matches!(insn.op0_kind(), OpKind::NearBranch64 | OpKind::NearBranch32 | OpKind::NearBranch16)
}

/// The listing of `trace` (executed addresses) from the code in `mem`.
///
/// # Errors
/// An address whose bytes cannot be read or decoded.
pub fn listing(mem: &Memory, trace: &[u64]) -> Result<String, ModelError> {
    let mut fmt = GasFormatter::new();
    let mut out = String::new();
    for &pc in trace {
        let insn = decode_at(mem, pc)?;
        let mut line = String::new();
        if is_direct_branch(&insn) {
            fmt.format_mnemonic(&insn, &mut line);
            line.push(' ');
            line.push_str(TARGET);
        } else {
            fmt.format(&insn, &mut line);
        }
        out.push('\t');
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(TARGET);
    out.push_str(":\n");
    Ok(out)
}
