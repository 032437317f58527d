//! `make idl`: the benchmark generated from a program's IDL, so a user
//! measures their own accounts (`docs/idl.md`). A stage each:
//! [`input`] reads an IDL file (Anchor spec 0.1.0, legacy Anchor, Shank)
//! into the spec's types, [`model`] resolves each account into one tree of
//! types, and [`layout`] computes the bytes an account holds; [`plan`]
//! decides which programs the IDL becomes, [`render`] writes one module per
//! target, [`generate`] writes and builds the crates, [`measure`] runs them
//! and [`profile`] says where their CUs go (`PROFILE=1`), and [`report`]
//! writes what they measured; [`run`] composes the stages.
//! Stages import forward only (a test in `benches/tests/layout.rs` holds
//! it): the model knows nothing of layouts, values or renderers, and the
//! plan nothing of writing, building or measuring.

pub mod capacity;
pub mod gate;
pub mod generate;
pub mod guard;
pub mod input;
pub mod layout;
pub mod measure;
pub mod model;
pub mod names;
pub mod plan;
pub mod profile;
pub mod render;
pub mod report;
pub mod run;
pub mod value;
