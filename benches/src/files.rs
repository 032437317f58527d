//! Files that several runs write at once (`make idl`'s runs in its tests,
//! the profile beside them): each written whole.

use std::{fs, path::Path};

/// Writes `contents` to `path` whole: into a file of its own beside it, then
/// renamed over it, so that two writers at once never leave a mix of both
/// and a reader never sees half of one.
pub fn write_whole(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), String> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let partial = path.with_file_name(format!(
        ".{name}.{}.{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    fs::write(&partial, contents)
        .and_then(|()| fs::rename(&partial, path))
        .map_err(|e| {
            let _ = fs::remove_file(&partial);
            format!("writing {}: {e}", path.display())
        })
}

/// Gives `copy` the modification time of `original`, whose contents it
/// holds: cargo, finding the copy of a crate no newer than the build `make
/// all` made of the original (the same package, relative path and
/// dependencies, so the same unit in `target/`), keeps that build rather
/// than rebuild it in place from the copy (its debug info then naming the
/// copy's folder, and what depends on it linked again).
pub fn keep_modified(original: &Path, copy: &Path) -> Result<(), String> {
    fs::metadata(original)
        .and_then(|m| m.modified())
        .and_then(|modified| {
            fs::File::options()
                .write(true)
                .open(copy)?
                .set_modified(modified)
        })
        .map_err(|e| format!("{}: {e}", copy.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers_at_once_leave_one_whole_text_and_no_partial_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.html");
        let texts: Vec<String> = (0..4u8)
            .map(|i| char::from(b'a' + i).to_string().repeat(1 << 20))
            .collect();
        let (all, path) = (&texts, &path);
        std::thread::scope(|s| {
            for text in all {
                s.spawn(move || {
                    for _ in 0..8 {
                        write_whole(path, text).unwrap();
                        let read = fs::read_to_string(path).unwrap();
                        assert!(all.contains(&read), "a mix of two writes");
                    }
                });
            }
        });
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["report.html"]);
    }

    #[test]
    fn a_write_that_fails_names_the_file_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("report.html");
        let said = write_whole(&path, "x").unwrap_err();
        assert!(
            said.starts_with(&format!("writing {}: ", path.display())),
            "{said}"
        );
        assert!(!dir.path().join("missing").exists());
    }
}
