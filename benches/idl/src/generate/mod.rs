//! Writes the generated programs of one IDL into a cargo workspace of their
//! own under `target/benches/idl/<program>/`, one crate per account type and
//! format, and builds them together (one cargo invocation for the crates
//! whose manifests are alike, going on past a refusal, each refusal read
//! from cargo's messages about its crate, so a link refused for one cannot
//! hide another), as `make programs` builds the families: [`write`]ing the
//! crates, [`build`]ing them, each [`refusal`] in the compiler's and the
//! linker's words ([`errors`]: where in the source; a refused frame with
//! its size), and, where a program cannot be made whole, [`bisect`]ing it
//! for the items that are the cause.

pub mod bisect;
pub mod build;
pub mod errors;
pub mod refusal;
pub mod write;

pub use bisect::{culprits, take_out};
pub use build::{Built, Crate, build_format, build_together, frames_refused};
pub use refusal::{Frame, Refusal, frame_refusal, missing_floats};
pub use write::{
    ANCHOR1, arguments_source, events_source, out_dir, source, write, write_arguments,
    write_arguments_placed, write_events,
};
