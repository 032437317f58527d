//! The metadata family on the harness side: the instances, the contract as
//! an oracle, the benchmark cases (and tests of the on-chain plumbing in
//! `common::metadata`).

pub mod cases;
pub mod contract;
pub mod instances;

pub use cases::{PROBED, cases, validates_unread};
pub use contract::{expected, format_of, host_codec, instruction_data, new_uri, valid_input};
pub use instances::{INSTANCES, OPERATIONS, instance};
#[cfg(test)]
mod tests {
    use common::metadata::{MAX_URI, Operation, check_new_uri};
    use solana_program_error::ProgramError;

    /// The instruction data the spec gives each operation, and the short
    /// or unknown ones refused.
    #[test]
    fn operations_parse_as_the_spec_says() {
        let key = [7u8; 32];
        let read_collection = [&[1][..], &key].concat();
        assert_eq!(Operation::parse(&[0]), Ok(Operation::Full));
        assert_eq!(
            Operation::parse(&read_collection),
            Ok(Operation::ReadCollection(&key))
        );
        assert_eq!(Operation::parse(&[2, 9]), Ok(Operation::VerifyCreator));
        assert_eq!(
            Operation::parse(&[3, 0xf4, 0x01]),
            Ok(Operation::ReadRoyalty(500))
        );
        assert_eq!(Operation::parse(&[4, b'a']), Ok(Operation::SetUri(b"a")));
        assert_eq!(Operation::parse(&[4]), Ok(Operation::SetUri(b"")));
        let bad = Err(ProgramError::InvalidInstructionData);
        for data in [&[][..], &[1; 32], &[3, 0], &[5], &[255]] {
            assert_eq!(Operation::parse(data), bad, "{data:?}");
        }
        let writes: Vec<bool> = [&[0][..], &read_collection, &[2], &[3, 0, 0], &[4]]
            .map(|d| Operation::parse(d).unwrap().writes())
            .into();
        assert_eq!(writes, [true, false, true, false, true]);
    }

    #[test]
    fn a_new_uri_is_utf8_within_its_bound_on_a_mutable_record() {
        let at_bound = "é".repeat(MAX_URI / 2);
        assert_eq!(
            check_new_uri(true, at_bound.as_bytes()),
            Ok(at_bound.as_str())
        );
        let refused = Err(ProgramError::InvalidArgument);
        assert_eq!(
            check_new_uri(true, "u".repeat(MAX_URI + 1).as_bytes()),
            refused
        );
        assert_eq!(check_new_uri(true, &[0x66, 0xff]), refused);
        assert_eq!(check_new_uri(false, b"https://a"), refused);
    }
}
