//! frcpa, frsqrta, fprcpa, fprsqrta: NOT MODELLED.
//!
//! The architecture defines these approximations by a reference table lookup (SDM vol. 3,
//! the frcpa/frsqrta pages, `fp_ieee_recip`/`fp_ieee_recip_sqrt`). No authoritative copy of
//! that table was available when this module was written, and the table is not invented
//! here: every call reports [`NotModelled`], which the executor turns into a run-stopping
//! error naming the instruction and its pc.

/// The error of an operation this model does not compute.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}: the reference approximation table of the SDM is not modelled")]
pub struct NotModelled(pub &'static str);

/// frcpa: not modelled (see the module documentation).
///
/// # Errors
/// Always [`NotModelled`].
pub fn frcpa() -> Result<(), NotModelled> {
    Err(NotModelled("frcpa"))
}

/// frsqrta: not modelled (see the module documentation).
///
/// # Errors
/// Always [`NotModelled`].
pub fn frsqrta() -> Result<(), NotModelled> {
    Err(NotModelled("frsqrta"))
}

/// fprcpa: not modelled (see the module documentation).
///
/// # Errors
/// Always [`NotModelled`].
pub fn fprcpa() -> Result<(), NotModelled> {
    Err(NotModelled("fprcpa"))
}

/// fprsqrta: not modelled (see the module documentation).
///
/// # Errors
/// Always [`NotModelled`].
pub fn fprsqrta() -> Result<(), NotModelled> {
    Err(NotModelled("fprsqrta"))
}
