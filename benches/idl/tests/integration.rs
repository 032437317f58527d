//! `make idl`'s tests, one binary: each module a file of `tests/`
//! (docs/tests.md says what each holds), `support` what they share.

mod anchor1;
mod bad_input;
mod capacity;
mod codama;
mod data;
mod dispatch;
mod examples;
mod fixed_capacity;
mod gate;
mod mutated;
mod names;
mod profile;
mod refusals;
mod support;
