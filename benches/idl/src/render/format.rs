//! The formats the generator writes programs in, on two levels:
//! - [`RowFormat`], the name a row carries in the results: all fourteen in
//!   one list, with the crate, its version and the framework;
//! - per site, the formats a program of that site can be written in:
//!   [`AccountFormat`], [`ArgumentFormat`] and [`EventFormat`], each a
//!   pinocchio codec or an Anchor 1.x route, so a renderer takes only
//!   what it can render (no account program in `floor`, no event in
//!   `LazyAccount<T>`).

/// The format a row names in the results (`format` in `results.json`):
/// one list over every site and framework, in the report's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RowFormat {
    /// Anchor 1.x's `Account<T>`: borsh's owned decode of the record after
    /// the discriminator, encoded back; by value.
    Borsh,
    /// The same, decoded into a `Box` (what `Box<Account<T>>` does).
    BorshBoxed,
    /// Anchor 2's `BorshAccount<T>`: wincode reading and writing borsh's
    /// bytes (`common::WINCODE_BORSH`).
    Wincode,
    /// No crate: generated code in place over borsh's bytes, reading
    /// lengths and tags up to the field it needs (the raw baseline).
    Walk,
    /// Anchor's `AccountLoader<T>`: bytemuck's cast of the bytes after the
    /// discriminator (zero-copy accounts only).
    Bytemuck,
    /// zerocopy's checked conversion of the same bytes: it validates every
    /// bool and enum itself (zero-copy accounts only).
    Zerocopy,
    /// No decode at all (instructions): the same dispatch and store, the
    /// stored bytes taken from the data as they came, so each format's own
    /// cost is a difference in one run.
    Floor,
    /// Anchor's `emit_cpi!` (events): the event encoded as `#[event]`
    /// (wincode), passed to the program itself in a CPI signed by its
    /// event authority.
    EmitCpi,
    /// Anchor 1.x itself (`programs/anchor1/`'s route): the record as
    /// `#[account]` behind `Account<T>`, through Anchor's dispatch and
    /// account checks; borsh accounts.
    Anchor1Account,
    /// Anchor 1.x's `AccountLoader<T>` over `#[account(zero_copy)]`: a
    /// zero-copy account as its IDL says, or a borsh one whose fields can
    /// be laid out so (its move to zero-copy).
    Anchor1AccountLoader,
    /// Anchor 1.x's `LazyAccount<T>` over `#[account]` (its `lazy-account`
    /// feature): one field decoded on demand; borsh accounts.
    Anchor1LazyAccount,
    /// Anchor 1.x's instruction handlers: every instruction's arguments as
    /// the handler's parameters, decoded with borsh by Anchor's dispatch
    /// on the IDL's discriminators.
    Anchor1Instruction,
    /// Anchor 1.x's `emit!`: the event as `#[event]`, logged.
    Anchor1Emit,
    /// Anchor 1.x's `emit_cpi!`: the event passed to the program itself,
    /// signed by its event authority (`#[event_cpi]`).
    Anchor1EmitCpi,
}

impl RowFormat {
    /// The framework the program is written in: `pinocchio` (the
    /// generated formats behind common's dispatch) or `anchor1`.
    pub fn framework(self) -> &'static str {
        if self.is_anchor1() {
            "anchor1"
        } else {
            "pinocchio"
        }
    }

    /// Whether the program is an Anchor 1.x one (`render::anchor1`).
    pub fn is_anchor1(self) -> bool {
        matches!(
            self,
            Self::Anchor1Account
                | Self::Anchor1AccountLoader
                | Self::Anchor1LazyAccount
                | Self::Anchor1Instruction
                | Self::Anchor1Emit
                | Self::Anchor1EmitCpi
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Anchor1Account => "anchor1_account",
            Self::Anchor1AccountLoader => "anchor1_account_loader",
            Self::Anchor1LazyAccount => "anchor1_lazy_account",
            Self::Anchor1Instruction => "anchor1_instruction",
            Self::Anchor1Emit => "anchor1_emit",
            Self::Anchor1EmitCpi => "anchor1_emit_cpi",
            Self::Borsh => "borsh",
            Self::BorshBoxed => "borsh_boxed",
            Self::Wincode => "wincode",
            Self::Walk => "walk",
            Self::Bytemuck => "bytemuck",
            Self::Zerocopy => "zerocopy",
            Self::Floor => "floor",
            Self::EmitCpi => "emit_cpi",
        }
    }

    /// The crate measured, as results name it.
    pub fn crate_name(self) -> &'static str {
        match self {
            Self::Borsh | Self::BorshBoxed => "borsh",
            Self::Wincode | Self::EmitCpi => "wincode",
            Self::Walk | Self::Floor => "none",
            Self::Bytemuck => "bytemuck",
            Self::Zerocopy => "zerocopy",
            _ => "anchor-lang",
        }
    }

    /// The crate's version, pinned as the workspace pins it.
    pub fn crate_version(self) -> &'static str {
        match self {
            Self::Borsh | Self::BorshBoxed => "1.8.1",
            Self::Wincode | Self::EmitCpi => "0.6.3",
            Self::Walk | Self::Floor => "-",
            Self::Bytemuck => "1.25.2",
            Self::Zerocopy => "0.8.63",
            _ => benches::frameworks::anchor1::releases::PINNED,
        }
    }
}

/// How a pinocchio account program holds its account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountCodec {
    /// borsh's owned decode, by value.
    Borsh,
    /// borsh's owned decode into a `Box`.
    BorshBoxed,
    /// wincode's owned decode of borsh's bytes.
    Wincode,
    /// Generated code over the bytes in place.
    Walk,
    /// bytemuck's cast (zero-copy accounts).
    Bytemuck,
    /// zerocopy's checked conversion (zero-copy accounts).
    Zerocopy,
}

impl AccountCodec {
    pub const ALL: [Self; 6] = [
        Self::Borsh,
        Self::BorshBoxed,
        Self::Wincode,
        Self::Walk,
        Self::Bytemuck,
        Self::Zerocopy,
    ];

    /// What the generated program does with the crate, for its doc comment.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Self::Borsh => {
                "borsh, as Anchor 1.x's `Account<T>` reads it: an owned decode of the record after the discriminator, by value, encoded back after a write"
            }
            Self::BorshBoxed => {
                "borsh decoded into a `Box` (what `Box<Account<T>>` does), encoded back after a write"
            }
            Self::Wincode => {
                "wincode writing borsh's bytes, as Anchor 2's `BorshAccount<T>` does: an owned decode of the record after the discriminator, encoded back after a write"
            }
            Self::Walk => {
                "no crate: generated code that walks borsh's bytes in place, validating every length, tag, bool and UTF-8 string it passes (all of them for `full`), and reads or writes the one field where it lies"
            }
            Self::Bytemuck => {
                "bytemuck, as Anchor's `AccountLoader<T>` reads it: a cast of the bytes after the discriminator, every field in place"
            }
            Self::Zerocopy => {
                "zerocopy's checked conversion of the bytes after the discriminator (the crate validates every bool and enum), every field in place"
            }
        }
    }

    /// Whether it reads borsh's bytes into an owned value.
    pub(crate) fn owned(self) -> bool {
        matches!(self, Self::Borsh | Self::BorshBoxed | Self::Wincode)
    }

    pub(crate) fn serializer(self) -> Serializer {
        match self {
            Self::Borsh | Self::BorshBoxed => Serializer::Borsh,
            Self::Wincode => Serializer::Wincode,
            Self::Walk => Serializer::None,
            Self::Bytemuck => Serializer::Bytemuck,
            Self::Zerocopy => Serializer::Zerocopy,
        }
    }
}

/// The serialization crate a pinocchio program depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Serializer {
    Borsh,
    Wincode,
    Bytemuck,
    Zerocopy,
    /// Generated code only (`walk`, `floor`).
    None,
}

/// Anchor 1.x's account types (`render::anchor1::accounts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountWrapper {
    Account,
    AccountLoader,
    LazyAccount,
}

impl AccountWrapper {
    pub const ALL: [Self; 3] = [Self::Account, Self::AccountLoader, Self::LazyAccount];
}

/// The format of an account program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountFormat {
    Pinocchio(AccountCodec),
    Anchor1(AccountWrapper),
}

/// How a pinocchio argument program decodes its instructions' arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgumentCodec {
    Floor,
    Borsh,
    Wincode,
    Walk,
    Bytemuck,
}

impl ArgumentCodec {
    pub const ALL: [Self; 5] = [
        Self::Floor,
        Self::Borsh,
        Self::Wincode,
        Self::Walk,
        Self::Bytemuck,
    ];

    pub(crate) fn serializer(self) -> Serializer {
        match self {
            Self::Borsh => Serializer::Borsh,
            Self::Wincode => Serializer::Wincode,
            Self::Walk | Self::Floor => Serializer::None,
            Self::Bytemuck => Serializer::Bytemuck,
        }
    }
}

/// The format of an argument program: a pinocchio codec, or Anchor 1.x's
/// instruction handlers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgumentFormat {
    Pinocchio(ArgumentCodec),
    Anchor1,
}

/// How a pinocchio event program encodes and emits its events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventCodec {
    Floor,
    Borsh,
    Wincode,
    Walk,
    Bytemuck,
    EmitCpi,
}

impl EventCodec {
    pub const ALL: [Self; 6] = [
        Self::Floor,
        Self::Borsh,
        Self::Wincode,
        Self::Walk,
        Self::Bytemuck,
        Self::EmitCpi,
    ];
}

/// Anchor 1.x's event macros.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventMacro {
    Emit,
    EmitCpi,
}

/// The format of an event program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventFormat {
    Pinocchio(EventCodec),
    Anchor1(EventMacro),
}

/// `From<$site> for RowFormat`: each variant of a site's type to the name a
/// row of it carries.
macro_rules! named_as {
    ($site:ident { $($variant:ident => $format:ident),* $(,)? }) => {
        impl From<$site> for RowFormat {
            fn from(value: $site) -> Self {
                match value {
                    $($site::$variant => Self::$format),*
                }
            }
        }
    };
}

named_as!(AccountCodec {
    Borsh => Borsh,
    BorshBoxed => BorshBoxed,
    Wincode => Wincode,
    Walk => Walk,
    Bytemuck => Bytemuck,
    Zerocopy => Zerocopy,
});
named_as!(AccountWrapper {
    Account => Anchor1Account,
    AccountLoader => Anchor1AccountLoader,
    LazyAccount => Anchor1LazyAccount,
});
named_as!(ArgumentCodec {
    Floor => Floor,
    Borsh => Borsh,
    Wincode => Wincode,
    Walk => Walk,
    Bytemuck => Bytemuck,
});
named_as!(EventCodec {
    Floor => Floor,
    Borsh => Borsh,
    Wincode => Wincode,
    Walk => Walk,
    Bytemuck => Bytemuck,
    EmitCpi => EmitCpi,
});
named_as!(EventMacro {
    Emit => Anchor1Emit,
    EmitCpi => Anchor1EmitCpi,
});

impl From<AccountFormat> for RowFormat {
    fn from(format: AccountFormat) -> Self {
        match format {
            AccountFormat::Pinocchio(codec) => codec.into(),
            AccountFormat::Anchor1(wrapper) => wrapper.into(),
        }
    }
}

impl From<ArgumentFormat> for RowFormat {
    fn from(format: ArgumentFormat) -> Self {
        match format {
            ArgumentFormat::Pinocchio(codec) => codec.into(),
            ArgumentFormat::Anchor1 => Self::Anchor1Instruction,
        }
    }
}

impl From<EventFormat> for RowFormat {
    fn from(format: EventFormat) -> Self {
        match format {
            EventFormat::Pinocchio(codec) => codec.into(),
            EventFormat::Anchor1(what) => what.into(),
        }
    }
}
