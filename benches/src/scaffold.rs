//! `make new-program NAME=<crate>`: a new program folder from the template.

use std::{fs, path::PathBuf};

use crate::{Family, Workspace};

/// The template of each family: (Cargo.toml, src/lib.rs).
fn template(family: Family) -> (&'static str, &'static str) {
    match family {
        Family::Token => (
            include_str!("../template/token/Cargo.toml.in"),
            include_str!("../template/token/lib.rs.in"),
        ),
        Family::Message => (
            include_str!("../template/message/Cargo.toml.in"),
            include_str!("../template/message/lib.rs.in"),
        ),
        Family::Metadata => (
            include_str!("../template/metadata/Cargo.toml.in"),
            include_str!("../template/metadata/lib.rs.in"),
        ),
    }
}

/// The family a `FAMILY=` argument names.
pub fn family(name: &str) -> Result<Family, String> {
    let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
    Family::ALL
        .into_iter()
        .find(|f| f.name() == name)
        .ok_or_else(|| {
            format!(
                "FAMILY `{name}` is not a family: use one of {}",
                names.join(", ")
            )
        })
}

/// Why a name cannot become a program; nothing is created.
pub fn check_name(workspace: &Workspace, family: Family, name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("NAME is empty: use make new-program FAMILY=<family> NAME=<crate>".into());
    }
    let valid = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !valid {
        return Err(format!(
            "NAME `{name}` is not a valid program name: use lowercase letters, digits and `_`, starting with a letter"
        ));
    }
    if name == "noop" {
        return Err("NAME `noop` is the floor program's; pick another".into());
    }
    let folder = format!("programs/{}/{name}", family.name());
    if workspace.root.join(&folder).exists() {
        return Err(format!(
            "{folder} already exists; pick another NAME or edit it"
        ));
    }
    Ok(())
}

/// Creates `programs/<family>/<name>/` and returns it.
pub fn new_program(workspace: &Workspace, family: Family, name: &str) -> Result<PathBuf, String> {
    check_name(workspace, family, name)?;
    let (cargo_toml, lib_rs) = template(family);
    let type_name: String = name
        .split('_')
        .filter(|part| !part.is_empty())
        .map(|part| part[..1].to_ascii_uppercase() + &part[1..])
        .collect();
    let fill = |template: &str| {
        template
            .replace("{{name}}", name)
            .replace("{{Type}}", &type_name)
    };
    let dir = workspace
        .root
        .join("programs")
        .join(family.name())
        .join(name);
    let write = || -> std::io::Result<()> {
        fs::create_dir_all(dir.join("src"))?;
        fs::write(dir.join("Cargo.toml"), fill(cargo_toml))?;
        fs::write(dir.join("src/lib.rs"), fill(lib_rs))
    };
    write().map_err(|error| {
        let _ = fs::remove_dir_all(&dir);
        format!("could not create {}: {error}", dir.display())
    })?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("programs/token/borsh")).unwrap();
        let workspace = Workspace::at(dir.path());
        (dir, workspace)
    }

    #[test]
    fn bad_names_create_nothing() {
        let (dir, workspace) = workspace();
        for (name, error) in [
            ("", "NAME is empty"),
            ("Borsh", "not a valid program name"),
            ("my-crate", "not a valid program name"),
            ("9lives", "not a valid program name"),
            ("a b", "not a valid program name"),
            ("noop", "floor program"),
            ("borsh", "programs/token/borsh already exists"),
        ] {
            let message = new_program(&workspace, Family::Token, name).expect_err(name);
            assert!(message.contains(error), "{name}: {message}");
        }
        let entries: Vec<_> = fs::read_dir(dir.path().join("programs/token"))
            .unwrap()
            .collect();
        assert_eq!(entries.len(), 1, "only programs/token/borsh");
        assert_eq!(
            family("nft").unwrap_err(),
            "FAMILY `nft` is not a family: use one of token, message, metadata"
        );
    }

    #[test]
    fn fills_the_template() {
        let (_dir, workspace) = workspace();
        let dir = new_program(&workspace, Family::Token, "my_crate").unwrap();
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(manifest.contains("name = \"my_crate-program\""));
        let lib = fs::read_to_string(dir.join("src/lib.rs")).unwrap();
        assert!(lib.contains("struct MyCrate;") && lib.contains("RoundTrip<MyCrate>"));
        assert!(!lib.contains("{{") && !manifest.contains("{{"));
    }
}
