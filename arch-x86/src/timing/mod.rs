//! x86-64 timing model (Golden Cove).

mod class;

pub use class::TimingClass;
