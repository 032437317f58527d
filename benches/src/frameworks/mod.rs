//! The frameworks beside pinocchio: real programs built with them
//! (`programs/anchor2/`, `programs/typhoon/`), each framework's contract
//! per family as it states it (an oracle, as for the families' programs)
//! and its benchmark cases, and the report's frameworks section, which
//! sets their rows beside the crates' with each framework's own floor.

pub mod anchor2;
pub mod typhoon;
