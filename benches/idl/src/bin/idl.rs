//! `make idl IDL=<file>`: reads the IDL, resolves its accounts and prints
//! each one's kind and size, or why it is not supported.

use std::{path::Path, process::ExitCode};

use idl::{input, layout, model};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1).filter(|p| !p.is_empty()) else {
        eprintln!("make idl: give the IDL to measure: make idl IDL=path/to/program.json");
        return ExitCode::FAILURE;
    };
    let assumptions = input::Assumptions::from_lists(
        &std::env::var("ZERO_COPY").unwrap_or_default(),
        &std::env::var("PACKED").unwrap_or_default(),
    );
    let parsed = match input::read(Path::new(&path)) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("make idl: {e}");
            return ExitCode::FAILURE;
        }
    };
    let program = model::resolve(&parsed, &assumptions);
    println!(
        "{} ({}, {}): {} account types",
        program.name,
        program.path,
        program.format.name(),
        program.accounts.len()
    );
    for account in &program.accounts {
        match account {
            Ok(account) => {
                let kind = match account.kind {
                    model::Kind::Borsh => "borsh",
                    model::Kind::ZeroCopy { packed: false } => "zero-copy",
                    model::Kind::ZeroCopy { packed: true } => "zero-copy, packed",
                };
                let assumed = if account.assumed { " (assumed)" } else { "" };
                let len = match layout::account_len(account) {
                    Ok(Some(len)) => format!("{len} bytes"),
                    Ok(None) => "variable length".into(),
                    Err(e) => format!("no layout: {e}"),
                };
                println!("  {}: {kind}{assumed}, {len}", account.name);
            }
            Err(refused) => println!("  {}: not supported: {}", refused.account, refused.reason),
        }
    }
    ExitCode::SUCCESS
}
