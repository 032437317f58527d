//! `make idl` on an IDL whose types are named by their Rust paths, as
//! Anchor 0.30 and later write a type defined outside the program's root
//! module (`idls/paths.json`: `path_types::state::Config` beside
//! `path_types::admin::Config` and a root `Config`, fields named `type`,
//! `move` and `match`), measured end to end: every account, instruction
//! and event has its rows, and the generated programs name each type once.

use std::{collections::BTreeSet, fs, sync::OnceLock};

use crate::support;

use idl::run::Run;
use idl::{measure::Measured, model::Site, render::RowFormat, run::Options};
use support::run_idl;

/// The run, once for both tests (a run rewrites its folder's files).
fn run_paths() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| run_idl("paths.json", &Options::default()))
}

#[test]
fn path_named_types_are_measured_everywhere() {
    let run = run_paths();
    let measured = |site: Site| -> BTreeSet<(String, &'static str)> {
        run.rows
            .iter()
            .filter(|r| r.site == site && matches!(r.outcome, Measured::Ran { .. }))
            .map(|r| (r.name.clone(), r.format.name()))
            .collect()
    };
    let accounts = measured(Site::Account);
    for account in ["Pool", "Config"] {
        for format in [
            RowFormat::Borsh,
            RowFormat::BorshBoxed,
            RowFormat::Wincode,
            RowFormat::Walk,
        ] {
            assert!(
                accounts.contains(&(account.to_string(), format.name())),
                "no {account} row in {}: {accounts:?}",
                format.name()
            );
        }
    }
    let instructions = measured(Site::Instruction);
    for instruction in ["swap", "set_config"] {
        for format in [RowFormat::Borsh, RowFormat::Wincode, RowFormat::Walk] {
            assert!(
                instructions.contains(&(instruction.to_string(), format.name())),
                "no {instruction} row in {}: {instructions:?}",
                format.name()
            );
        }
    }
    assert!(instructions.contains(&("set_config".to_string(), "bytemuck")));
    let events = measured(Site::Event);
    for format in [
        RowFormat::Borsh,
        RowFormat::Wincode,
        RowFormat::Walk,
        RowFormat::EmitCpi,
    ] {
        assert!(events.contains(&("Swapped".to_string(), format.name())));
    }
    assert!(run.refused.is_empty(), "{:?}", run.refused);
    // Only bytemuck's layout refusals: an enum with data has no zero-copy
    // layout.
    for skipped in &run.skipped {
        assert_eq!(skipped.format, RowFormat::Bytemuck, "{skipped:?}");
        assert!(skipped.reason.contains("enum"), "{skipped:?}");
    }
}

#[test]
fn each_path_gets_its_own_readable_type() {
    let run = run_paths();
    let source = |name: &str| {
        fs::read_to_string(run.dir.join("programs").join(name).join("src/lib.rs")).unwrap()
    };
    let pool = source("pool_borsh");
    assert!(pool.contains("struct Pool {"), "{pool}");
    assert!(pool.contains("struct StateConfig {"), "{pool}");
    assert!(pool.contains("config: StateConfig,"), "{pool}");
    assert!(pool.contains("r#move: bool,"), "{pool}");
    assert!(pool.contains("enum PoolKind {"), "{pool}");
    let config = source("config_borsh");
    assert!(config.contains("struct Config {"), "{config}");
    let instructions = source("instructions_borsh");
    assert!(
        instructions.contains("struct AdminConfig {"),
        "{instructions}"
    );
    assert!(instructions.contains("r#match: u32,"), "{instructions}");
    assert!(instructions.contains("r#type: u8,"), "{instructions}");
    assert!(
        instructions.contains("struct SwapParams {"),
        "{instructions}"
    );
    assert!(!instructions.contains("PathTypes"), "{instructions}");
}
