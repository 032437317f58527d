//! [`Fields`] for the zero-copy crates that read the account as their own
//! type rather than as `Account`. They live here because the trait and
//! the derived types are both `common`'s.

#[cfg(any(feature = "rkyv", feature = "light-zero-copy"))]
use super::{Fields, FieldsMut};

#[cfg(feature = "rkyv")]
mod rkyv_views {
    use rkyv::{munge::munge, seal::Seal};

    use super::{Fields, FieldsMut};
    use crate::token::ArchivedAccount;

    impl Fields for ArchivedAccount {
        #[inline(always)]
        fn owner(&self) -> &[u8; 32] {
            &self.owner
        }
    }

    impl Fields for Seal<'_, ArchivedAccount> {
        #[inline(always)]
        fn owner(&self) -> &[u8; 32] {
            &self.owner
        }
    }

    // rkyv hands out archived data mutably only as a `Seal`, whose fields
    // are reached with `munge`.
    impl FieldsMut for Seal<'_, ArchivedAccount> {
        #[inline(always)]
        fn set_state(&mut self, state: u8) {
            munge!(let ArchivedAccount { state: mut stored, .. } = self.as_mut());
            *stored = state;
        }

        #[inline(always)]
        fn set_amount(&mut self, amount: u64) {
            munge!(let ArchivedAccount { amount: mut stored, .. } = self.as_mut());
            *stored = amount.into();
        }
    }
}

#[cfg(feature = "light-zero-copy")]
mod light_views {
    use super::{Fields, FieldsMut};
    use crate::token::{ZAccount, ZAccountMut};

    impl Fields for ZAccount<'_> {
        #[inline(always)]
        fn owner(&self) -> &[u8; 32] {
            &self.owner
        }
    }

    impl Fields for ZAccountMut<'_> {
        #[inline(always)]
        fn owner(&self) -> &[u8; 32] {
            &self.owner
        }
    }

    impl FieldsMut for ZAccountMut<'_> {
        #[inline(always)]
        fn set_state(&mut self, state: u8) {
            self.state = state;
        }

        #[inline(always)]
        fn set_amount(&mut self, amount: u64) {
            self.amount = amount.into();
        }
    }
}
