//! Instructions selected by more than one tag (`idls/extensions.codama.json`,
//! Token-2022's style: an extension's byte, then the instruction's, as two
//! field discriminators or a field and a constant) beside instructions
//! selected by one byte: the generated dispatch reads the first byte, and
//! a second dispatch the next, so every instruction is measured and
//! checked against the oracle. What no dispatch can tell apart is refused
//! by name.

use crate::support;

use idl::{input, measure::Measured, model, model::Site, render::RowFormat, run::Options};
use serde_json::{Value, json};
use support::{root, run_idl};

const EXTENSIONS: [(&str, &str); 6] = [
    ("transfer", "03"),
    ("burn", "08"),
    ("initializeTransferFeeConfig", "1a00"),
    ("setTransferFee", "1a05"),
    ("enableRequiredMemoTransfers", "1e00"),
    ("disableRequiredMemoTransfers", "1e01"),
];

#[test]
fn two_tag_instructions_are_dispatched_on_both_and_measured() {
    let run = run_idl("extensions.codama.json", &Options::default());
    for (name, _) in EXTENSIONS {
        for format in [
            RowFormat::Floor,
            RowFormat::Borsh,
            RowFormat::Wincode,
            RowFormat::Walk,
            RowFormat::Bytemuck,
        ] {
            assert!(
                run.rows.iter().any(|r| r.site == Site::Instruction
                    && r.name == name
                    && r.format == format
                    && matches!(r.outcome, Measured::Ran { .. })),
                "{name} not measured in {}",
                format.name()
            );
        }
    }
    assert!(run.skipped.is_empty(), "{:?}", run.skipped);
    assert!(run.refused.is_empty(), "{:?}", run.refused);
    let source =
        std::fs::read_to_string(run.dir.join("programs/instructions_borsh/src/lib.rs")).unwrap();
    assert!(
        source.contains("const DISCRIMINATOR_LEN: usize = 1;"),
        "{source}"
    );
    assert!(source.contains("fn dispatch_1a(data: &[u8]"), "{source}");
    assert!(source.contains("fn dispatch_1e(data: &[u8]"), "{source}");
}

/// Two-tag instructions beside a one-tag one, their arguments holding an
/// option with a `u8` tag and a one-byte boolean after fixed fields
/// (`idls/extension_args.codama.json`): each invalid byte (a tag or a
/// bool of 2) is written after the instruction's own two tags, not after
/// the first instruction's one, so every format refuses it
/// (`InvalidInstructionData`, checked by the run's contract) and every
/// row is measured.
#[test]
fn invalid_bytes_sit_after_each_instructions_own_tags() {
    let run = run_idl("extension_args.codama.json", &Options::default());
    for (name, formats) in [
        (
            "initializeTransferFeeConfig",
            &[
                RowFormat::Floor,
                RowFormat::Borsh,
                RowFormat::Wincode,
                RowFormat::Walk,
            ][..],
        ),
        (
            "setTransferFee",
            &[
                RowFormat::Floor,
                RowFormat::Borsh,
                RowFormat::Wincode,
                RowFormat::Walk,
                RowFormat::Bytemuck,
            ][..],
        ),
    ] {
        for format in formats {
            assert!(
                run.rows.iter().any(|r| r.site == Site::Instruction
                    && r.name == name
                    && r.format == *format
                    && matches!(r.outcome, Measured::Ran { .. })),
                "{name} not measured in {}",
                format.name()
            );
        }
    }
}

/// The example with `edit` applied to its instructions, resolved: each
/// instruction's discriminator in hex, or its refusal.
fn resolved(edit: impl FnOnce(&mut Vec<Value>)) -> Vec<(String, Result<String, String>)> {
    let path = root().join("benches/idl/idls/extensions.codama.json");
    let mut idl: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(idl["program"]["instructions"].as_array_mut().unwrap());
    let parsed = input::parse("extensions.json", "extensions", &idl.to_string()).unwrap();
    model::resolve(&parsed, &Default::default())
        .instructions
        .into_iter()
        .map(|ix| match ix {
            Ok(ix) => (
                ix.name,
                Ok(ix
                    .discriminator
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect()),
            ),
            Err(refused) => (refused.name, Err(refused.reason)),
        })
        .collect()
}

#[test]
fn what_no_dispatch_can_tell_apart_is_refused_by_name() {
    assert_eq!(
        resolved(|_| {}),
        EXTENSIONS
            .iter()
            .map(|(n, d)| (n.to_string(), Ok(d.to_string())))
            .collect::<Vec<_>>()
    );
    // A one-byte instruction 26: the two-byte ones that start with it
    // cannot be told from it.
    let refused = resolved(|ixs| {
        let mut plain = ixs[0].clone();
        plain["name"] = json!("harvest");
        plain["arguments"][0]["defaultValue"]["number"] = json!(26);
        ixs.push(plain);
    });
    assert_eq!(
        refused[2],
        (
            "initializeTransferFeeConfig".into(),
            Err("its discriminator `1a00` starts with `1a`, the whole of `harvest`'s: one dispatch cannot tell them apart".into())
        )
    );
    assert_eq!(refused[6], ("harvest".into(), Ok("1a".into())));
    // A second instruction with `burn`'s bytes.
    let refused = resolved(|ixs| {
        let mut copy = ixs[1].clone();
        copy["name"] = json!("burnAgain");
        ixs.push(copy);
    });
    assert_eq!(
        refused[6],
        (
            "burnAgain".into(),
            Err(
                "its discriminator `08` is `burn`'s too: one dispatch cannot tell them apart"
                    .into()
            )
        )
    );
}
