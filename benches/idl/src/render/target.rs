//! What the generator needs of an account beyond the model.

use crate::{
    model::{Account, Integer, Scalar},
    value::FieldPath,
};

/// What the generator needs to know of an account beyond the model.
#[derive(Clone, Debug)]
pub struct Target<'a> {
    pub program: &'a str,
    pub source: &'a str,
    pub account: &'a Account,
    /// The account's index in the IDL (the instruction's second byte).
    pub index: u8,
    pub read: FieldPath<Scalar>,
    pub update: Option<FieldPath<Integer>>,
}
