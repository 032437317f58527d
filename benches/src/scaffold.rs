//! `make new-program NAME=<crate>`: a new program folder from the template.

use std::{fs, path::PathBuf};

use crate::Workspace;

const CARGO_TOML: &str = include_str!("../template/Cargo.toml.in");
const LIB_RS: &str = include_str!("../template/lib.rs.in");

/// Why a name cannot become a program; nothing is created.
pub fn check_name(workspace: &Workspace, name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("NAME is empty: use make new-program NAME=<crate>".into());
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
    let dir = workspace.root.join("programs").join(name);
    if dir.exists() {
        return Err(format!(
            "programs/{name} already exists; pick another NAME or edit it"
        ));
    }
    Ok(())
}

/// Creates `programs/<name>/` and returns it.
pub fn new_program(workspace: &Workspace, name: &str) -> Result<PathBuf, String> {
    check_name(workspace, name)?;
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
    let dir = workspace.root.join("programs").join(name);
    let write = || -> std::io::Result<()> {
        fs::create_dir_all(dir.join("src"))?;
        fs::write(dir.join("Cargo.toml"), fill(CARGO_TOML))?;
        fs::write(dir.join("src/lib.rs"), fill(LIB_RS))
    };
    write().map_err(|error| {
        let _ = fs::remove_dir_all(&dir);
        format!("could not create programs/{name}: {error}")
    })?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("programs/borsh")).unwrap();
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
            ("borsh", "programs/borsh already exists"),
        ] {
            let message = new_program(&workspace, name).expect_err(name);
            assert!(message.contains(error), "{name}: {message}");
        }
        let entries: Vec<_> = fs::read_dir(dir.path().join("programs")).unwrap().collect();
        assert_eq!(entries.len(), 1, "only programs/borsh");
    }

    #[test]
    fn fills_the_template() {
        let (_dir, workspace) = workspace();
        let dir = new_program(&workspace, "my_crate").unwrap();
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(manifest.contains("name = \"my_crate-program\""));
        let lib = fs::read_to_string(dir.join("src/lib.rs")).unwrap();
        assert!(lib.contains("struct MyCrate;") && lib.contains("RoundTrip<MyCrate>"));
        assert!(!lib.contains("{{") && !manifest.contains("{{"));
    }
}
