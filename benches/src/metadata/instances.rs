//! The metadata family's three instances (docs/metadata.md):
//! `minimal`, `typical` and `full`, deterministic (keys from a fixed seed).

use common::metadata::{
    Collection, CollectionDetails, Creator, Key, MAX_CREATORS, MAX_NAME, MAX_SYMBOL, MAX_URI,
    Metadata, ProgrammableConfig, TokenStandard, UseMethod, Uses,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The instances, by name, smallest first.
pub const INSTANCES: [&str; 3] = ["minimal", "typical", "full"];

/// The operations, in op-byte order.
pub const OPERATIONS: [&str; 5] = common::metadata::Operation::NAMES;

/// The instance called `name`.
///
/// # Panics
/// On a name not in [`INSTANCES`].
pub fn instance(name: &str) -> Metadata {
    let mut rng = ChaCha8Rng::seed_from_u64(0x4d45_5441);
    let mut key = || -> [u8; 32] { rng.random() };
    let (update_authority, mint) = (key(), key());
    let base = Metadata {
        key: Key::MetadataV1,
        update_authority,
        mint,
        name: "Sunset #42".into(),
        symbol: "SUN".into(),
        uri: "https://arweave.net/9Vv7gkH4mA1m3Qk0nB2xYzT5rLcP8dE6fW0sJuKqXo".into(),
        seller_fee_basis_points: 500,
        creators: None,
        primary_sale_happened: false,
        is_mutable: true,
        edition_nonce: None,
        token_standard: None,
        collection: None,
        uses: None,
        collection_details: None,
        programmable_config: None,
    };
    let creators = |count: usize, key: &mut dyn FnMut() -> [u8; 32]| {
        let shares = match count {
            3 => vec![50, 30, 20],
            _ => vec![20; count],
        };
        shares
            .into_iter()
            .enumerate()
            .map(|(i, share)| Creator {
                address: key(),
                verified: i == 0,
                share,
            })
            .collect::<Vec<_>>()
    };
    match name {
        "minimal" => base,
        "typical" => Metadata {
            // One multi-byte character (U+00E9, two bytes).
            name: "Café Racer #1207 Gold".into(),
            symbol: "CAFE".into(),
            uri: "https://arweave.net/kX2nU8Gv4QzPq7R1sT9wYb3cD5eF6gH0iJ2kL4mN6oP8qR0sT2uV4wX6yZ/1207.json"
                .into(),
            creators: Some(creators(3, &mut key)),
            edition_nonce: Some(254),
            token_standard: Some(TokenStandard::NonFungible),
            collection: Some(Collection {
                verified: true,
                key: key(),
            }),
            ..base
        },
        "full" => Metadata {
            // At each bound, multi-byte characters included.
            name: fill("Ünïcödé Näme ", MAX_NAME),
            symbol: fill("€SYM", MAX_SYMBOL),
            uri: fill("https://example.com/métadata/", MAX_URI),
            creators: Some(creators(MAX_CREATORS, &mut key)),
            primary_sale_happened: true,
            edition_nonce: Some(255),
            token_standard: Some(TokenStandard::ProgrammableNonFungibleEdition),
            collection: Some(Collection {
                verified: true,
                key: key(),
            }),
            uses: Some(Uses {
                use_method: UseMethod::Multiple,
                remaining: 7,
                total: 10,
            }),
            collection_details: Some(CollectionDetails::V1 { size: 10_000 }),
            programmable_config: Some(ProgrammableConfig::V1 {
                rule_set: Some(key()),
            }),
            ..base
        },
        other => panic!("no metadata instance `{other}`; instances: {INSTANCES:?}"),
    }
}

/// `pattern` repeated, then ASCII digits, to exactly `len` bytes.
fn fill(pattern: &str, len: usize) -> String {
    let mut out = String::new();
    for c in pattern.chars().cycle() {
        if out.len() + c.len_utf8() > len {
            break;
        }
        out.push(c);
    }
    while out.len() < len {
        out.push('0');
    }
    out
}

#[cfg(test)]
mod tests {
    use common::metadata::{HOST_FORMATS, host_format};

    use super::*;

    #[test]
    fn instances_are_valid_records_as_the_spec_describes() {
        for name in INSTANCES {
            let m = instance(name);
            assert!(m.is_valid(), "{name}");
            assert_eq!(m, instance(name), "{name}: deterministic");
        }
        let minimal = instance("minimal");
        assert!(minimal.creators.is_none() && minimal.collection.is_none());
        assert!(minimal.name.is_ascii() && (8..=12).contains(&minimal.name.len()));
        let typical = instance("typical");
        assert_eq!(
            typical.name.len() - typical.name.chars().count(),
            1,
            "one two-byte char"
        );
        assert!(typical.uri.starts_with("https://") && (85..=95).contains(&typical.uri.len()));
        let creators = typical.creators.as_ref().unwrap();
        assert_eq!(creators.iter().map(|c| c.share as u32).sum::<u32>(), 100);
        assert!(creators[0].verified && creators.len() == 3);
        let full = instance("full");
        for (s, bound) in [
            (&full.name, MAX_NAME),
            (&full.symbol, MAX_SYMBOL),
            (&full.uri, MAX_URI),
        ] {
            assert_eq!(s.len(), bound);
            assert!(!s.is_ascii(), "{s}: multi-byte characters");
        }
        assert_eq!(full.creators.as_ref().unwrap().len(), MAX_CREATORS);
        assert!(Metadata::largest().is_valid());
    }

    /// Every format reads every instance's account back, the account is
    /// sized for the largest record, and the bytes after the encoding are
    /// zero.
    #[test]
    fn every_format_reads_every_instance_back() {
        assert!(host_format("borsh").is_some());
        for format in HOST_FORMATS {
            let len = format.account_len();
            for name in INSTANCES {
                let m = instance(name);
                let encoded = (format.encode)(&m);
                let account = format.account(&m);
                assert_eq!(account.len(), len, "{} {name}", format.name);
                assert!(encoded.len() <= len, "{} {name}", format.name);
                assert!(account[encoded.len()..].iter().all(|&b| b == 0));
                let read = (format.decode)(&account);
                assert_eq!(read, Some((m, encoded.len())), "{} {name}", format.name);
            }
        }
    }

    /// wincode's program reads and writes borsh's bytes, as Anchor 2's
    /// `BorshAccount` does.
    #[test]
    fn wincode_writes_borsh_bytes() {
        let (borsh, wincode) = (
            host_format("borsh").unwrap(),
            host_format("wincode").unwrap(),
        );
        for m in INSTANCES
            .map(instance)
            .into_iter()
            .chain([Metadata::largest()])
        {
            assert_eq!((wincode.encode)(&m), (borsh.encode)(&m));
        }
    }

    /// zeropod's bytes are borsh's, of the record with its fixed-size
    /// fields first.
    #[test]
    fn zeropod_writes_borsh_bytes_of_the_reordered_record() {
        use common::metadata::FixedFirst;
        let zeropod = host_format("zeropod").unwrap();
        for m in INSTANCES
            .map(instance)
            .into_iter()
            .chain([Metadata::largest()])
        {
            let reordered = FixedFirst::from(m.clone());
            assert_eq!((zeropod.encode)(&m), zeropod::to_vec(&reordered).unwrap());
            assert_eq!(Metadata::from(reordered), m);
        }
    }

    /// A record outside the spec's bounds does not decode in any format.
    #[test]
    fn out_of_bound_records_do_not_decode() {
        let mut long_uri = instance("typical");
        long_uri.uri = "u".repeat(MAX_URI + 1);
        let mut six_creators = instance("full");
        six_creators.creators.as_mut().unwrap().push(Creator {
            address: [1; 32],
            verified: false,
            share: 0,
        });
        let mut wrong_key = instance("minimal");
        wrong_key.key = Key::EditionV1;
        for format in HOST_FORMATS {
            for bad in [&long_uri, &six_creators, &wrong_key] {
                assert_eq!(
                    (format.decode)(&(format.encode)(bad)),
                    None,
                    "{}",
                    format.name
                );
            }
        }
    }
}
