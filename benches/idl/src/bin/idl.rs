//! `make idl IDL=<file>`: reads the IDL, resolves its accounts and prints
//! each one's kind and size, or why it is not supported.

use std::{path::Path, process::ExitCode};

use idl::{generate, input, layout, model};

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
    let root = std::env::current_dir().expect("a working directory");
    let plans = generate::plan(&program);
    let dir = match generate::write(&root, &program, &plans) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!(
                "make idl: {}: writing the generated programs: {e}",
                program.path
            );
            return ExitCode::FAILURE;
        }
    };
    for plan in &plans {
        match plan {
            generate::Plan::Skip {
                account,
                format,
                reason,
            } => {
                println!("  {account} {}: no row: {reason}", format.name())
            }
            generate::Plan::Build(planned) => match generate::build(&root, &dir, planned) {
                generate::Built::Program(so) => println!(
                    "  {} {}: {} ({} bytes)",
                    planned.account,
                    planned.format.name(),
                    so.display(),
                    std::fs::metadata(&so).map(|m| m.len()).unwrap_or(0)
                ),
                generate::Built::Refused(why) => {
                    println!(
                        "  {} {}: build refused: {why}",
                        planned.account,
                        planned.format.name()
                    )
                }
            },
        }
    }
    ExitCode::SUCCESS
}
