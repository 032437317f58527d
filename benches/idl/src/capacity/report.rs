//! The sizing as the run's `summary.md` section and its `results.json`
//! key (`capacities`).

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::{Capacities, SetBy, Sized};
use crate::report::moves::rent;

/// The summary's section: per account type with variable fields, each
/// field's lengths and capacity, the record's bytes and rent at them
/// against the accounts' own, and how many fit; then what was left out.
pub fn section(capacities: &Capacities) -> String {
    let mut out = String::new();
    if capacities.types.is_empty() && capacities.notes.is_empty() {
        return out;
    }
    out.push_str(benches::report::page::CAPACITY_HEADING);
    out.push_str("\n\n");
    if !capacities.asked {
        let names: Vec<String> = capacities
            .types
            .iter()
            .map(|t| format!("`{}`", t.account))
            .collect();
        let _ = writeln!(
            out,
            "{} {} variable fields (strings, lists, options of them). No capacity is sized without your accounts: give `ACCOUNTS=<a folder of your accounts>` (`solana account <address> --output json`, RPC `getAccountInfo`/`getProgramAccounts` responses, or Mollusk fixtures) or `CAPACITY=<Type.field=N,...>`.",
            names.join(", "),
            if names.len() == 1 { "has" } else { "have" }
        );
        return out;
    }
    out.push_str("Each variable field at a capacity: the largest length your accounts hold unless `CAPACITY=` sets it. The layout: no padding, a length in the fewest bytes that hold its capacity before its inline bytes or items, an option as a flag byte and its value, an enum as a tag byte and its largest variant.\n");
    for sized in &capacities.types {
        type_section(&mut out, sized);
    }
    if !capacities.notes.is_empty() {
        out.push_str("\nLeft out or named:\n\n");
        for note in &capacities.notes {
            let _ = writeln!(out, "- {note}");
        }
    }
    out
}

fn type_section(out: &mut String, sized: &Sized) {
    let _ = writeln!(
        out,
        "\n### `{}` ({} of your accounts)\n\n| field | varies in | largest seen | 99th percentile | capacity | set by |\n|---|---|---:|---:|---:|---|",
        sized.account,
        sized.held.len()
    );
    let shown = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_else(|| "-".into());
    for field in &sized.fields {
        let (capacity, set_by) = match field.capacity {
            Some((n, SetBy::Seen)) => (n.to_string(), "your accounts"),
            Some((n, SetBy::Given)) => (n.to_string(), "CAPACITY="),
            None => ("-".into(), "none: give CAPACITY="),
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {capacity} | {set_by} |",
            field.variable.name,
            field.variable.varies.unit(),
            shown(field.largest),
            shown(field.p99),
        );
    }
    out.push('\n');
    match (sized.record_len, sized.account_len) {
        (Some(record), Some(account)) => {
            let _ = write!(
                out,
                "At these capacities the record is {record} bytes, the account {account} (its discriminator first), rent-exempt at {} lamports",
                rent(account)
            );
            match sized.today() {
                Some((median, largest)) => {
                    let _ = writeln!(
                        out,
                        "; your accounts: {median} bytes the median, {largest} the largest (rent-exempt at {} lamports). {} of {} fit.",
                        rent(largest),
                        sized.fit,
                        sized.held.len()
                    );
                }
                None => out.push_str(".\n"),
            }
        }
        _ => {
            let _ = writeln!(
                out,
                "Not sized: a field has no capacity (no account of this type was read; give `CAPACITY={}.<field>=N`).",
                sized.account
            );
        }
    }
}

/// `results.json`'s `capacities`: per account type, its fields and sizes.
pub fn json(capacities: &Capacities) -> Value {
    let types: Vec<Value> = capacities
        .types
        .iter()
        .map(|sized| {
            let fields: Vec<Value> = sized
                .fields
                .iter()
                .map(|f| {
                    json!({
                        "field": f.variable.name,
                        "varies": f.variable.varies.unit(),
                        "largest": f.largest,
                        "p99": f.p99,
                        "capacity": f.capacity.map(|(n, _)| n),
                        "given": f.capacity.map(|(_, by)| by == SetBy::Given),
                    })
                })
                .collect();
            let today = sized.today().map(|(median, largest)| {
                json!({"median_bytes": median, "largest_bytes": largest, "rent_exempt": rent(largest)})
            });
            json!({
                "account": sized.account,
                "fields": fields,
                "accounts": sized.held.len(),
                "fit": sized.fit,
                "record_bytes": sized.record_len,
                "account_bytes": sized.account_len,
                "rent_exempt": sized.account_len.map(rent),
                "today": today,
            })
        })
        .collect();
    json!({"types": types, "notes": capacities.notes})
}
