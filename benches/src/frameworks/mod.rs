//! The frameworks beside pinocchio: the token family on solana-program's
//! entrypoint, and real programs built with other frameworks
//! (`programs/anchor2/`, `programs/typhoon/`, `programs/steel/`,
//! `programs/star_frame/`, `programs/hopper/`), each framework's contract
//! per family as it states it (an oracle, as for the families' programs)
//! and its benchmark cases, and the report's frameworks section, which
//! sets their rows beside the crates' with each framework's own floor.

pub mod anchor1;
pub mod anchor2;
pub mod hopper;
pub mod solana_program;
pub mod star_frame;
pub mod steel;
pub mod typhoon;
