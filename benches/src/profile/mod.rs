//! Where every compute unit of a row goes: its trace and its syscalls'
//! exact charges ([`record`], [`meter`]) attributed to stacks of frames
//! ([`attribute`]) that sum to its CUs, named by inlined frame from a
//! program's `.so.debug` ([`dwarf`]) or by function ([`symbols`]), sorted
//! into categories ([`categories`]) and written out ([`output`] per row,
//! [`summary`] for the run), and the docs' figures held to it
//! ([`figures`]); each frame's name as two profiles are set side by side
//! ([`frames`]; the comparison itself is [`crate::compare`]).

pub mod attribute;
pub mod categories;
pub mod dwarf;
pub mod figures;
pub mod frames;
pub mod meter;
pub mod output;
pub mod profiler;
pub mod record;
pub mod summary;
pub mod symbols;

pub use attribute::{Named, Profile, attribute};
pub use profiler::{ProfiledRow, Profiler};
pub use record::{Recorded, Recorder, VmRun};
pub use summary::write;
pub use symbols::Symbols;
