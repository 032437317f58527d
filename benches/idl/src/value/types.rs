//! The values of the model's types, and how instances are filled.

/// A value of a [`Ty`].
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    /// Two's complement, in the type's width.
    Int(u128),
    /// The float's bits.
    Float(u64),
    Pubkey([u8; 32]),
    Array(Vec<Value>),
    Struct(Vec<Value>),
    Enum(usize, Vec<Value>),
    Option(Option<Box<Value>>),
    Vec(Vec<Value>),
    String(String),
    Bytes(Vec<u8>),
}

/// How an instance is filled: every option `Some` and every list at its length, or
/// every option `None` and every list empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    Full,
    Empty,
}

/// How long strings and lists are in the `Full` instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lengths {
    pub string: usize,
    pub list: usize,
}

impl Default for Lengths {
    fn default() -> Self {
        Self {
            string: 24,
            list: 4,
        }
    }
}

/// A field inside a record: its index at each level of nested structs, and
/// its type as the plan checked it (a [`Scalar`](crate::model::Scalar) to
/// read or store, an [`Integer`](crate::model::Integer) to update).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldPath<T> {
    pub indexes: Vec<usize>,
    pub ty: T,
}
