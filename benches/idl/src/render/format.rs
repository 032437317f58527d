//! The formats the generator writes programs in: what each is, which
//! crate and framework it uses, and which records it can hold.

/// A format the generator writes programs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
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

impl Format {
    pub const ALL: [Self; 6] = [
        Self::Borsh,
        Self::BorshBoxed,
        Self::Wincode,
        Self::Walk,
        Self::Bytemuck,
        Self::Zerocopy,
    ];

    /// The account formats of Anchor 1.x programs (`make idl` renders
    /// them for Anchor IDLs: [`anchor1`]).
    pub const ANCHOR1: [Self; 3] = [
        Self::Anchor1Account,
        Self::Anchor1AccountLoader,
        Self::Anchor1LazyAccount,
    ];

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
            Self::Floor | Self::EmitCpi => unreachable!("not an account format"),
            _ => unreachable!("rendered by render::anchor1"),
        }
    }

    /// Whether it reads borsh's bytes into an owned value.
    pub(crate) fn owned(self) -> bool {
        matches!(self, Self::Borsh | Self::BorshBoxed | Self::Wincode)
    }
}
