//! The harness's tests, one binary: each module a file of `tests/`
//! (docs/tests.md says what each holds). Tests that run at once share
//! nothing they write: a run of this checkout writes its reports to a
//! scratch folder.

mod anchor1;
mod anchor2;
mod anchor_versions;
mod build;
mod cdp;
mod contract;
mod docs;
mod encodings;
mod framework_metadata;
mod framework_token;
mod harness;
mod hopper;
mod host_features;
mod layout;
mod message;
mod metadata;
mod page;
mod profile;
mod properties;
mod registry;
mod report;
mod reproducible;
mod star_frame;
mod steel;
mod sweep;
mod toolchains;
mod trace;
mod typhoon;
