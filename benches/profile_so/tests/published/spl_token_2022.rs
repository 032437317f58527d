//! Token-2022 7.0.0 as mainnet runs it and as built here (`make
//! deployed`): the same calls, the same results and accounts, and the
//! docs' figures this run's.

use super::*;
use profile_so::deployed::{self, token_2022};

/// A call's resulting account `key`'s data in `run`.
fn data_after<'a>(run: &'a so::Run, fixture: &str, key: u8) -> &'a [u8] {
    let call = run
        .profiled
        .iter()
        .find(|p| p.fixture == format!("{fixture}.json"))
        .unwrap_or_else(|| panic!("{fixture}: not run"));
    let key = Pubkey::new_from_array([key; 32]);
    &call
        .result
        .resulting_accounts
        .iter()
        .find(|(k, _)| *k == key)
        .unwrap_or_else(|| panic!("{fixture}: no account {key}"))
        .1
        .data
}

/// Both builds run every call with the same result and accounts, each
/// call's accounts are what Token-2022 is to leave, and the README's
/// ratio and docs/toolchain.md's tables are this run's.
#[test]
#[ignore = "needs make published; make test runs it"]
fn token_2022_as_deployed_and_as_built_here_agree_call_by_call() {
    let workspace = Workspace::current();
    let found = deployed::run(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let diff = &found.diff;
    assert!(diff.behaviour.is_empty() && diff.not_compared().is_empty());
    assert_eq!(diff.compared.len(), 11);
    for run in [&diff.base, &diff.new] {
        // Alice (3) pays Bob (4) 200 of 500; with the fee mint, Bob gets
        // 1% less, withheld in his account.
        for transfer in ["transfer", "transfer_checked"] {
            assert_eq!(token_2022::amount(data_after(run, transfer, 3)), 300);
            assert_eq!(token_2022::amount(data_after(run, transfer, 4)), 200);
        }
        let fee = "transfer_checked_with_fee_extension";
        assert_eq!(token_2022::amount(data_after(run, fee, 3)), 300);
        assert_eq!(token_2022::amount(data_after(run, fee, 4)), 198);
        assert_eq!(token_2022::withheld(data_after(run, fee, 4)), 2);
        assert_eq!(token_2022::amount(data_after(run, "mint_to", 3)), 500);
        assert_eq!(token_2022::amount(data_after(run, "burn", 3)), 300);
        // The memo extension's byte, last in Bob's account, set.
        assert_eq!(
            data_after(run, "enable_required_memo_transfers", 4).last(),
            Some(&1)
        );
        // A refused transfer leaves both balances as they were.
        assert_eq!(
            token_2022::amount(data_after(run, "transfer_insufficient", 3)),
            500
        );
        assert_eq!(
            token_2022::amount(data_after(run, "transfer_checked_to_memo_required", 4)),
            0
        );
        let errors: Vec<_> = run
            .profiled
            .iter()
            .filter_map(|p| p.error.clone())
            .collect();
        assert_eq!(errors, ["Custom(36)", "Custom(1)"]);
    }
    let differs = deployed::docs(&workspace.root, &found, false).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        differs.is_empty(),
        "run make deployed DOCS=1 and commit the result:\n{}",
        differs.join("\n")
    );
}
