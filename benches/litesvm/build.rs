//! Records the litesvm version the lockfile resolved, for the report.
fn main() {
    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"litesvm\"\n"))
        .and_then(|p| p.lines().find(|l| l.starts_with("version = ")))
        .map(|l| {
            l.trim_start_matches("version = ")
                .trim_matches('"')
                .to_string()
        })
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=LITESVM_VERSION={version}");
    println!("cargo:rerun-if-changed=Cargo.lock");
}
