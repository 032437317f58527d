//! Values of the model's types: the [`instances`] every case runs on, the
//! host oracle's two [`encode`]ings of them (borsh's, and a zero-copy
//! account's memory) and its [`oracle`] decoding them back, the field
//! [`paths`] a case reads and updates, the [`invalid`] bytes it writes, and
//! the [`refusal`] of what no value can be generated for.

pub mod encode;
mod entries;
pub mod instances;
pub mod invalid;
pub mod oracle;
pub mod paths;
pub mod refusal;
pub mod types;

pub use encode::{account_data, encode, scalar_bytes, short_u16, truncate, zero_copy};
pub use instances::Instances;
pub use invalid::{first_invalid, updated};
pub use oracle::{DecodeError, decode, decode_account, decode_short_u16, decode_zero_copy};
pub use paths::{default_path, path_name, path_of, value_at, with_path};
pub use refusal::{MAX_DATA_LEN, full_len, refuse_unmeasurable};
pub use types::{FieldPath, Fill, Lengths, Value};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Account, Field, Integer, Kind, Scalar, Struct, Ty};

    fn record() -> Struct {
        let int = |bytes| Ty::Int {
            bytes,
            signed: false,
        };
        Struct {
            name: "R".into(),
            ident: "R".into(),
            fields: vec![
                Field {
                    name: "flag".into(),
                    ty: Ty::Bool,
                },
                Field {
                    name: "big".into(),
                    ty: int(16),
                },
                Field {
                    name: "owner".into(),
                    ty: Ty::Pubkey,
                },
                Field {
                    name: "count".into(),
                    ty: int(2),
                },
                Field {
                    name: "padding".into(),
                    ty: Ty::Array(Box::new(int(1)), 3),
                },
            ],
            packed: false,
        }
    }

    #[test]
    fn zero_copy_memory_puts_each_field_at_its_sbf_offset() {
        let account = Account {
            name: "R".into(),
            ident: "r".into(),
            discriminator: vec![9; 8],
            kind: Kind::ZeroCopy { packed: false },
            assumed: false,
            record: record(),
        };
        let value = Instances::new(Fill::Full, Lengths::default()).record(&account);
        let data = account_data(&account, &value);
        // flag at 0, padding to 8, big at 8..24, owner 24..56, count 56..58,
        // padding 58..61, then trailing padding to 64.
        assert_eq!(data.len(), 8 + 64);
        let body = &data[8..];
        assert_eq!(body[0], 1);
        assert_eq!(body[1..8], [0; 7]);
        let Value::Struct(fields) = &value else {
            panic!()
        };
        let Value::Int(big) = fields[1] else { panic!() };
        assert_eq!(body[8..24], big.to_le_bytes());
        assert_ne!(big, 0);
        assert_eq!(body[58..64], [0; 6], "the padding array stays zero");
        // borsh's bytes of the same record: no padding.
        let mut borsh_bytes = Vec::new();
        encode(&value, &Ty::Struct(record()), &mut borsh_bytes);
        assert_eq!(borsh_bytes.len(), 1 + 16 + 32 + 2 + 3);
    }

    #[test]
    fn a_record_with_no_top_level_scalar_is_read_inside_its_last_nested_struct() {
        let outer = Struct {
            name: "Outer".into(),
            ident: "Outer".into(),
            fields: vec![
                Field {
                    name: "inner".into(),
                    ty: Ty::Struct(record()),
                },
                Field {
                    name: "names".into(),
                    ty: Ty::Vec(Box::new(Ty::String)),
                },
            ],
            packed: false,
        };
        // `inner.count` (index 3 of `R`): the last scalar of the last struct.
        let count = default_path(&outer, Scalar::of).expect("a scalar");
        assert_eq!(count.indexes, vec![0, 3]);
        assert_eq!(count.ty.ty(), record().fields[3].ty);
        assert_eq!(path_name(&outer, &[0, 3]), "inner.count");
        assert_eq!(
            path_of(&outer, "inner.owner"),
            Ok((vec![0, 2], &Ty::Pubkey))
        );
        assert_eq!(
            path_of(&outer, "inner.nothing"),
            Err("`R` has no field `nothing`".into())
        );
        assert_eq!(
            path_of(&outer, "names.x"),
            Err("`Outer.names` is not a struct".into())
        );
        let empty = Struct {
            name: "E".into(),
            ident: "E".into(),
            fields: vec![],
            packed: false,
        };
        assert_eq!(default_path(&empty, Scalar::of), None);
    }

    #[test]
    fn the_first_invalid_byte_is_the_first_a_decoder_checks() {
        let ty = Ty::Struct(Struct {
            name: "A".into(),
            ident: "A".into(),
            fields: vec![
                Field {
                    name: "n".into(),
                    ty: Ty::Int {
                        bytes: 8,
                        signed: false,
                    },
                },
                Field {
                    name: "s".into(),
                    ty: Ty::String,
                },
                Field {
                    name: "b".into(),
                    ty: Ty::Bool,
                },
            ],
            packed: false,
        });
        let value = Value::Struct(vec![
            Value::Int(5),
            Value::String("ab".into()),
            Value::Bool(true),
        ]);
        // The string's first byte, after the u64 and its u32 length.
        assert_eq!(first_invalid(&value, &ty), Some((12, 0xff)));
        let empty = Value::Struct(vec![
            Value::Int(5),
            Value::String(String::new()),
            Value::Bool(true),
        ]);
        // An empty string has no byte to spoil: the bool after it.
        assert_eq!(first_invalid(&empty, &ty), Some((12, 2)));
    }

    #[test]
    fn read_and_update_default_to_the_last_scalar_and_integer() {
        // `padding` is an array: not a read field.
        let read = default_path(&record(), Scalar::of).expect("a scalar");
        assert_eq!(read.indexes, vec![3]);
        let update = default_path(&record(), Integer::of).expect("an integer");
        assert_eq!(update.indexes, vec![3]);
    }
}
