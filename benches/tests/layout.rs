//! The harness's layout: one folder per family beside the shared stages,
//! and no import cycle between its modules (files), re-exports through
//! `lib.rs` and a family's `mod.rs` followed to the file that defines the
//! item.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

/// `benches/src/<a>/<b>.rs` as `a::b`; `mod.rs` as its folder; `lib.rs` as
/// the empty path.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| p != "mod" && p != "lib")
        .collect();
    parts.join("::")
}

/// Source without `//` comments, without its unit tests (a file's
/// `#[cfg(test)]` module comes last; its `super` is the file itself) and
/// without the bodies of `quote!` (code generated for another crate,
/// whose `super::` is that crate's).
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    let text = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("quote!") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "quote!".len()..];
        let Some(open) = after.find(['{', '(', '[']) else {
            rest = after;
            break;
        };
        let mut depth = 0;
        let mut end = after.len();
        for (i, c) in after.char_indices().skip(open) {
            match c {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = i + 1;
                break;
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Every `crate::…` / `super::…` path in `text`, braces of `use` trees
/// expanded: `use crate::{a::b, c}` gives `crate::a::b` and `crate::c`.
fn paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let bytes: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let rest: String = bytes[i..bytes.len().min(i + 7)].iter().collect();
        let boundary = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_');
        if boundary && (rest.starts_with("crate::") || rest.starts_with("super::")) {
            let (tree, end) = read_tree(&bytes, i);
            found.extend(expand(&tree));
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// The path tree starting at `i`: identifiers, `::`, and balanced braces.
fn read_tree(chars: &[char], mut i: usize) -> (String, usize) {
    let mut depth = 0;
    let mut tree = String::new();
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            c if depth == 0 && !(c.is_alphanumeric() || c == '_' || c == ':') => break,
            _ => {}
        }
        tree.push(c);
        i += 1;
    }
    (tree, i)
}

/// `a::{b::{c, d}, e}` -> `a::b::c`, `a::b::d`, `a::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.trim_end_matches("::").to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.len() - 1];
    let mut parts = Vec::new();
    let (mut depth, mut from) = (0, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[from..at]);
                from = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[from..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            let p = p.split(" as ").next().unwrap();
            expand(&format!("{prefix}{p}"))
        })
        .collect()
}

/// The file a path names: the longest prefix that is a module, and, where
/// the next segment is re-exported by that module (`pub use x::{Item}`),
/// the module it comes from.
fn resolve(
    modules: &BTreeSet<String>,
    exports: &BTreeMap<String, BTreeMap<String, String>>,
    from: &str,
    path: &str,
) -> String {
    let mut segments: Vec<&str> = Vec::new();
    let here: Vec<&str> = if from.is_empty() {
        Vec::new()
    } else {
        from.split("::").collect()
    };
    for (n, segment) in path.split("::").enumerate() {
        match segment {
            "crate" if n == 0 => segments.clear(),
            "super" if n == 0 => {
                // `from` is a file; `super` is its parent's module.
                segments = here[..here.len().saturating_sub(1)].to_vec();
            }
            "super" => {
                segments.pop();
            }
            "self" => {}
            other => segments.push(other),
        }
    }
    let mut module = String::new();
    for segment in segments {
        let longer = if module.is_empty() {
            segment.to_string()
        } else {
            format!("{module}::{segment}")
        };
        if modules.contains(&longer) {
            module = longer;
        } else {
            if let Some(source) = exports.get(&module).and_then(|e| e.get(segment)) {
                module = source.clone();
            }
            break;
        }
    }
    module
}

/// Each module (file) of the crate whose sources are `src` and the modules
/// it imports, re-exports followed to the file that defines the item.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files: Vec<PathBuf> = walkdir::WalkDir::new(src)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs") && !p.starts_with(src.join("bin")))
        .collect();
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(src, f)).collect();
    let texts: BTreeMap<String, String> = files
        .iter()
        .map(|f| (module_of(src, f), code(&fs::read_to_string(f).unwrap())))
        .collect();
    // What each facade (lib.rs, a family's mod.rs) re-exports, by name.
    let mut exports: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (module, text) in &texts {
        for statement in text
            .split(';')
            .filter_map(|s| s.trim().strip_prefix("pub use "))
        {
            for path in expand(statement) {
                let mut parts: Vec<&str> = path.split("::").collect();
                let name = parts.pop().unwrap().to_string();
                let child = parts.join("::");
                // Each glob keeps its own entry: `pub use {a::*, b::*}`
                // re-exports both.
                let name = if name == "*" {
                    format!("*{child}")
                } else {
                    name
                };
                let source = if module.is_empty() {
                    child
                } else {
                    format!("{module}::{child}")
                };
                let source = resolve(&modules, &BTreeMap::new(), "", &format!("crate::{source}"));
                exports
                    .entry(module.clone())
                    .or_default()
                    .insert(name, source);
            }
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in &texts {
        let mut targets: BTreeSet<String> = paths(text)
            .iter()
            .map(|path| resolve(&modules, &exports, module, path))
            .filter(|target| target != module)
            .collect();
        // A facade's own re-exports are its children, not imports back.
        for source in exports.get(module).into_iter().flat_map(|e| e.values()) {
            targets.insert(source.clone());
        }
        targets.remove(module);
        edges.insert(module.clone(), targets);
    }
    edges
}

/// The first import cycle among `edges`, if any, as `a -> b -> a` (the
/// crate root named `lib`).
fn import_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<String> {
    // Depth-first search for a cycle.
    fn visit<'a>(
        module: &'a str,
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|m| *m == module) {
            let mut cycle: Vec<String> = stack[at..].iter().map(|m| m.to_string()).collect();
            cycle.push(module.to_string());
            return Some(cycle);
        }
        if !done.insert(module) {
            return None;
        }
        stack.push(module);
        for target in edges.get(module).into_iter().flatten() {
            if let Some((key, _)) = edges.get_key_value(target.as_str())
                && let Some(cycle) = visit(key.as_str(), edges, stack, done)
            {
                return Some(cycle);
            }
        }
        stack.pop();
        None
    }
    let mut done = BTreeSet::new();
    let name = |m: &String| {
        if m.is_empty() {
            "lib".to_string()
        } else {
            m.clone()
        }
    };
    edges.keys().find_map(|module| {
        let cycle = visit(module, edges, &mut Vec::new(), &mut done)?;
        Some(cycle.iter().map(name).collect::<Vec<_>>().join(" -> "))
    })
}

#[test]
fn harness_modules_import_no_cycle() {
    let edges = imports(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(
        edges.keys().any(|m| m.starts_with("token::"))
            && edges.keys().any(|m| m.starts_with("message::")),
        "a folder per family under benches/src: {:?}",
        edges.keys()
    );
    if let Some(cycle) = import_cycle(&edges) {
        panic!("benches/src imports in a circle: {cycle}");
    }
}

/// `make idl`'s stages import forward only: no module of `benches/idl/src`
/// reaches, through its imports, back to itself.
#[test]
fn idl_modules_import_no_cycle() {
    let edges = imports(&Path::new(env!("CARGO_MANIFEST_DIR")).join("idl/src"));
    assert!(edges.contains_key("plan"), "{:?}", edges.keys());
    // The model's nodes are a leaf: every stage imports them, they import
    // nothing of the crate.
    assert_eq!(edges["model::types"], BTreeSet::new());
    if let Some(cycle) = import_cycle(&edges) {
        panic!("benches/idl/src imports in a circle: {cycle}");
    }
}
