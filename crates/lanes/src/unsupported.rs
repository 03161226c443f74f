//! The error of a forced backend the CPU cannot run.

use core::fmt;

/// A backend was forced ([`crate::sha256::compress_with`],
/// [`crate::sha512::compress_with`]) on a CPU that lacks its instructions;
/// nothing was hashed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsupported {
    /// The backend's name, as its `Display` writes it.
    pub backend: &'static str,
    /// What is missing: "CPU lacks avx512f+avx512bw", or "not an x86_64 CPU".
    pub reason: &'static str,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "backend {} cannot run here: {}",
            self.backend, self.reason
        )
    }
}

impl std::error::Error for Unsupported {}
