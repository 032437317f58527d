//! The message family on the harness side: the instances by size, the
//! contract as an oracle, the benchmark cases, the report's message
//! section and its chart.

pub mod cases;
pub mod contract;
pub mod instances;
pub mod limits;

pub use cases::{cases, validates_unread};
pub use contract::{expected, format_of, host_codec, instruction_data, valid_input};
pub use instances::{Content, OPERATIONS, SIZES, TOLERANCE, generate, instance};
