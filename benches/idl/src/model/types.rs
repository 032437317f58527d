//! The model's nodes: a program's accounts, instructions and events, each
//! one tree of resolved types ([`Ty`]), and what can be known of a type on
//! its own (its encoding's length where fixed). A leaf: it imports nothing
//! of the crate, and every stage imports it.

/// Which kind of IDL a file was: its dialect (a serialization format is
/// `render::RowFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Anchor 0.30 and later: `metadata.spec` 0.1.0, discriminators given.
    Anchor,
    /// Anchor before 0.30: `version` and `name` at the top, no
    /// discriminators (sha256 of `account:<Name>`), no `serialization`.
    LegacyAnchor,
    /// Shank (legacy shape, `metadata.origin: "shank"`): no discriminator.
    Shank,
    /// Codama (`rootNode`): every byte described, discriminators as
    /// fields, sizes or constants.
    Codama,
}

/// The dialects in Anchor's JSON shape (everything but Codama): what an
/// `input::Idl::Anchor` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnchorDialect {
    Anchor,
    LegacyAnchor,
    Shank,
}

impl From<AnchorDialect> for Dialect {
    fn from(dialect: AnchorDialect) -> Self {
        match dialect {
            AnchorDialect::Anchor => Self::Anchor,
            AnchorDialect::LegacyAnchor => Self::LegacyAnchor,
            AnchorDialect::Shank => Self::Shank,
        }
    }
}

impl Dialect {
    pub fn name(self) -> &'static str {
        match self {
            Self::Anchor => "Anchor (spec 0.1.0)",
            Self::LegacyAnchor => "legacy Anchor",
            Self::Shank => "Shank",
            Self::Codama => "Codama",
        }
    }
}

/// A type, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Bool,
    Int {
        bytes: u8,
        signed: bool,
    },
    Float {
        bytes: u8,
    },
    Pubkey,
    Array(Box<Ty>, usize),
    Struct(Struct),
    Enum(Enum),
    Option(Box<Ty>),
    Vec(Box<Ty>),
    String,
    Bytes,
    /// A big-endian integer (a Codama number with `endian: "be"`).
    BigEndian {
        bytes: u8,
        signed: bool,
    },
    /// Solana's compact `u16` (Codama's `shortU16`): 1 to 3 bytes of 7
    /// bits each, the low bits first.
    ShortU16,
    /// Items counted otherwise than borsh's `Vec` (a `u32` prefix): a
    /// prefix of another width, or the rest of the data.
    List {
        item: Box<Ty>,
        count: Count,
    },
    /// A UTF-8 string whose length is not borsh's `u32` prefix.
    Text(Count),
    /// An option whose tag is not borsh's one byte, or whose `None` is
    /// padded to the size of `Some` (`fixed`: SPL's `COption`, a `u32` tag).
    TaggedOption {
        tag: u8,
        fixed: bool,
        item: Box<Ty>,
    },
    /// An option whose `None` is the item's size in zero bytes.
    ZeroableOption(Box<Ty>),
    /// A map (`value`: `HashMap`, `BTreeMap`) or a set (no `value`:
    /// `HashSet`, `BTreeSet`) as borsh writes one: a `u32` count, then
    /// each key (and its value) in the key's order.
    Map {
        key: Box<Ty>,
        value: Option<Box<Ty>>,
        /// A `BTreeMap` or `BTreeSet` in the program; else a hash map or
        /// set (Codama's `mapTypeNode` and `setTypeNode` say no more, and
        /// its Rust client writes `HashMap` and `HashSet`).
        sorted: bool,
    },
    /// How many items of the fixed-capacity array after it in its struct
    /// are in use (the fixed-capacity move, [`Kind::FixedCapacity`]): an
    /// unsigned little-endian integer of `bytes` bytes, at most
    /// `capacity`; `text` where the items are a string's bytes (UTF-8).
    Length {
        bytes: u8,
        capacity: usize,
        text: bool,
    },
}

/// How a Codama list or string says how long it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// A little-endian unsigned prefix of this many bytes.
    Prefix(u8),
    /// A `shortU16` prefix.
    ShortU16,
    /// No prefix: it runs to the end of the data.
    Remainder,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Struct {
    /// The IDL's name (a Rust path in Anchor 0.30 and later), for messages.
    pub name: String,
    /// Its Rust identifier, unique in the program (given by the naming
    /// pass, [`idents`]; empty before it).
    pub ident: String,
    pub fields: Vec<Field>,
    /// `repr(packed)`: no padding, alignment 1.
    pub packed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// A tuple field's name is its index.
    pub name: String,
    pub ty: Ty,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enum {
    /// The IDL's name, for messages.
    pub name: String,
    /// Its Rust identifier, unique in the program (the naming pass).
    pub ident: String,
    pub variants: Vec<Variant>,
    /// The tag's width in bytes, little-endian: 1 in borsh, 4 in
    /// bincode-style programs (Codama's `size`).
    pub tag: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    pub fields: Vec<Field>,
}

impl Struct {
    /// Whether a float of one of these widths (in bytes) is in one of its
    /// fields, at any depth.
    pub fn holds_float(&self, widths: &[u8]) -> bool {
        self.fields.iter().any(|f| f.ty.holds_float(widths))
    }

    /// Whether its last field runs to the end of the data (a Codama
    /// remainder), so that a shorter input is another valid value.
    pub fn ends_in_remainder(&self) -> bool {
        matches!(
            self.fields.last().map(|f| &f.ty),
            Some(
                Ty::List {
                    count: Count::Remainder,
                    ..
                } | Ty::Text(Count::Remainder)
            )
        )
    }
}

impl Ty {
    /// Whether a float of one of these widths (in bytes) is in it, at any
    /// depth.
    pub fn holds_float(&self, widths: &[u8]) -> bool {
        match self {
            Ty::Float { bytes } => widths.contains(bytes),
            ty => ty.children().iter().any(|child| child.holds_float(widths)),
        }
    }

    /// The types directly inside this one: a struct's fields, every
    /// variant's fields, an array's, list's or option's item, a map's key
    /// and value. The walks over a tree (naming, rendering) recurse
    /// through this rather than each matching every variant.
    pub fn children(&self) -> Vec<&Ty> {
        match self {
            Ty::Struct(s) => s.fields.iter().map(|f| &f.ty).collect(),
            Ty::Enum(e) => e
                .variants
                .iter()
                .flat_map(|v| &v.fields)
                .map(|f| &f.ty)
                .collect(),
            Ty::Array(item, _)
            | Ty::Option(item)
            | Ty::Vec(item)
            | Ty::List { item, .. }
            | Ty::TaggedOption { item, .. }
            | Ty::ZeroableOption(item) => vec![item],
            Ty::Map { key, value, .. } => std::iter::once(&**key).chain(value.as_deref()).collect(),
            Ty::Bool
            | Ty::Int { .. }
            | Ty::Float { .. }
            | Ty::Pubkey
            | Ty::String
            | Ty::Bytes
            | Ty::BigEndian { .. }
            | Ty::ShortU16
            | Ty::Length { .. }
            | Ty::Text(_) => Vec::new(),
        }
    }

    /// [`Ty::children`], to change.
    pub fn children_mut(&mut self) -> Vec<&mut Ty> {
        match self {
            Ty::Struct(s) => s.fields.iter_mut().map(|f| &mut f.ty).collect(),
            Ty::Enum(e) => e
                .variants
                .iter_mut()
                .flat_map(|v| &mut v.fields)
                .map(|f| &mut f.ty)
                .collect(),
            Ty::Array(item, _)
            | Ty::Option(item)
            | Ty::Vec(item)
            | Ty::List { item, .. }
            | Ty::TaggedOption { item, .. }
            | Ty::ZeroableOption(item) => vec![item],
            Ty::Map { key, value, .. } => std::iter::once(&mut **key)
                .chain(value.as_deref_mut())
                .collect(),
            Ty::Bool
            | Ty::Int { .. }
            | Ty::Float { .. }
            | Ty::Pubkey
            | Ty::String
            | Ty::Bytes
            | Ty::BigEndian { .. }
            | Ty::ShortU16
            | Ty::Length { .. }
            | Ty::Text(_) => Vec::new(),
        }
    }
}

impl Enum {
    /// Whether no variant carries data.
    pub fn is_unit(&self) -> bool {
        self.variants.iter().all(|v| v.fields.is_empty())
    }
}

/// How the account's bytes after the discriminator are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// borsh's encoding of the type.
    Borsh,
    /// The type's memory (`#[account(zero_copy)]`): `repr(C)` with SBF's
    /// alignment, or no padding at all where `packed`.
    ZeroCopy { packed: bool },
    /// Exactly the bytes a Codama IDL describes, in order, with no padding.
    Codama,
    /// A borsh account's fixed-capacity move (`capacity::fixed`): its
    /// memory with no padding, every string and list a [`Ty::Length`] and
    /// its items inline at a capacity, every option a flag and its value.
    FixedCapacity,
}

impl Kind {
    /// Whether the bytes are a type's memory, and then whether packed (no
    /// padding): a zero-copy account's, or a fixed-capacity one's.
    pub fn memory(self) -> Option<bool> {
        match self {
            Kind::ZeroCopy { packed } => Some(packed),
            Kind::FixedCapacity => Some(true),
            Kind::Borsh | Kind::Codama => None,
        }
    }
}

/// One account type, ready for the layout and the generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub name: String,
    /// Its snake_case name in the generated crates' folders, unique in
    /// the program (given by the naming pass, [`idents`]).
    pub ident: String,
    pub discriminator: Vec<u8>,
    pub kind: Kind,
    /// Whether the kind came from the user (`ZERO_COPY=`, `PACKED=`) or
    /// was assumed for a legacy file, rather than from the IDL.
    pub assumed: bool,
    pub record: Struct,
}

/// Where a program serializes: what a row measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Site {
    Account,
    Instruction,
    Event,
}

impl Site {
    pub fn name(self) -> &'static str {
        match self {
            Self::Account => "account",
            Self::Instruction => "instruction",
            Self::Event => "event",
        }
    }
}

/// One instruction: the bytes its data starts with, then its arguments
/// (borsh's encoding of `args`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub name: String,
    /// Its handler's name, unique in the program (the naming pass).
    pub ident: String,
    pub discriminator: Vec<u8>,
    pub args: Struct,
}

/// One event: what `emit!` logs is its discriminator, then its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub name: String,
    /// The stem of its emitter's and constants' names, unique in the
    /// program (the naming pass).
    pub ident: String,
    pub discriminator: Vec<u8>,
    pub record: Struct,
}

/// An account, instruction or event the benchmark cannot represent, and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub name: String,
    pub reason: String,
}

/// A program's accounts, instructions and events, each resolved or
/// refused.
#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub path: String,
    /// The program's address, where the IDL gives it.
    pub address: Option<String>,
    pub dialect: Dialect,
    pub accounts: Vec<Result<Account, Unsupported>>,
    pub instructions: Vec<Result<Instruction, Unsupported>>,
    pub events: Vec<Result<Event, Unsupported>>,
}

impl Program {
    /// The resolved account named `name`.
    pub fn account(&self, name: &str) -> Option<&Account> {
        self.accounts.iter().flatten().find(|a| a.name == name)
    }

    /// The resolved instruction named `name`.
    pub fn instruction(&self, name: &str) -> Option<&Instruction> {
        self.instructions.iter().flatten().find(|i| i.name == name)
    }

    /// The resolved event named `name`.
    pub fn event(&self, name: &str) -> Option<&Event> {
        self.events.iter().flatten().find(|e| e.name == name)
    }

    /// The account a fixed-capacity account was moved from (its name
    /// without [`AT_CAPACITY`]); `None` for any other.
    pub fn moved_from(&self, account: &Account) -> Option<&Account> {
        if account.kind != Kind::FixedCapacity {
            return None;
        }
        self.account(account.name.strip_suffix(AT_CAPACITY)?)
    }
}

/// What a fixed-capacity account's name adds to its borsh account's.
pub const AT_CAPACITY: &str = " at capacity";

/// Nested types deeper than this are refused (a type that contains
/// itself, through a `Vec` or an `Option`, never ends).
pub(crate) const MAX_DEPTH: usize = 32;

/// A map of `key` to `value` (a set where there is none), a `BTreeMap` or
/// `BTreeSet` where `sorted`: refused where the key is not one the
/// generated programs can order and hash (a number, bool, string, bytes or
/// pubkey).
pub(crate) fn map(key: Ty, value: Option<Ty>, sorted: bool) -> Result<Ty, String> {
    match key {
        Ty::Int { .. } | Ty::Bool | Ty::String | Ty::Bytes | Ty::Pubkey => Ok(Ty::Map {
            key: Box::new(key),
            value: value.map(Box::new),
            sorted,
        }),
        other => Err(format!(
            "a map or set keyed by `{other:?}`; make idl generates maps keyed by a number, bool, string, bytes or pubkey"
        )),
    }
}

/// The length of `ty`'s encoding (borsh's, or the bytes a Codama IDL
/// describes) where every value has the same one (no strings, lists,
/// options that are not `fixed`, or enums whose variants differ).
pub fn encoded_len(ty: &Ty) -> Option<usize> {
    match ty {
        Ty::BigEndian { bytes, .. } => Some(*bytes as usize),
        Ty::TaggedOption {
            tag,
            fixed: true,
            item,
        } => encoded_len(item)?.checked_add(*tag as usize),
        Ty::ZeroableOption(item) => encoded_len(item),
        Ty::TaggedOption { .. } | Ty::ShortU16 | Ty::List { .. } | Ty::Text(_) => None,
        Ty::Bool => Some(1),
        Ty::Int { bytes, .. } | Ty::Float { bytes } | Ty::Length { bytes, .. } => {
            Some(*bytes as usize)
        }
        Ty::Pubkey => Some(32),
        Ty::Array(inner, len) => encoded_len(inner)?.checked_mul(*len),
        Ty::Struct(s) => sum_len(&s.fields),
        Ty::Enum(e) => {
            let lens: Option<Vec<usize>> = e.variants.iter().map(|v| sum_len(&v.fields)).collect();
            let lens = lens?;
            let first = *lens.first()?;
            lens.iter()
                .all(|&l| l == first)
                .then_some(first.checked_add(e.tag as usize)?)
        }
        Ty::Option(_) | Ty::Vec(_) | Ty::String | Ty::Bytes | Ty::Map { .. } => None,
    }
}

/// The fields' encodings' total length, where each is fixed (and the total
/// fits a `usize`).
fn sum_len(fields: &[Field]) -> Option<usize> {
    fields
        .iter()
        .try_fold(0usize, |sum, f| sum.checked_add(encoded_len(&f.ty)?))
}

/// A field read, stored or compared as one value: what an account's `read`
/// field and an instruction's stored argument are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    Bool,
    Int(Integer),
    Float { bytes: u8 },
    Pubkey,
}

/// An integer, little- or big-endian: what an account's `update` field is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Integer {
    pub bytes: u8,
    pub signed: bool,
    pub big_endian: bool,
}

impl Scalar {
    /// `ty` as a scalar, where it is one.
    pub fn of(ty: &Ty) -> Option<Self> {
        match *ty {
            Ty::Bool => Some(Self::Bool),
            Ty::Float { bytes } => Some(Self::Float { bytes }),
            Ty::Pubkey => Some(Self::Pubkey),
            _ => Integer::of(ty).map(Self::Int),
        }
    }

    /// Its encoding's width in bytes.
    pub fn width(self) -> usize {
        match self {
            Self::Bool => 1,
            Self::Int(Integer { bytes, .. }) | Self::Float { bytes } => bytes as usize,
            Self::Pubkey => 32,
        }
    }

    /// The type it was found as.
    pub fn ty(self) -> Ty {
        match self {
            Self::Bool => Ty::Bool,
            Self::Int(int) => int.ty(),
            Self::Float { bytes } => Ty::Float { bytes },
            Self::Pubkey => Ty::Pubkey,
        }
    }
}

impl Integer {
    /// `ty` as an integer, where it is one.
    pub fn of(ty: &Ty) -> Option<Self> {
        match *ty {
            Ty::Int { bytes, signed } => Some(Self {
                bytes,
                signed,
                big_endian: false,
            }),
            Ty::BigEndian { bytes, signed } => Some(Self {
                bytes,
                signed,
                big_endian: true,
            }),
            _ => None,
        }
    }

    /// The type it was found as.
    pub fn ty(self) -> Ty {
        let Self {
            bytes,
            signed,
            big_endian,
        } = self;
        if big_endian {
            Ty::BigEndian { bytes, signed }
        } else {
            Ty::Int { bytes, signed }
        }
    }
}
