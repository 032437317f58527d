// Cargo applies a crate's build-dependencies (and their features) only when
// it has a build script: this one does nothing else.
fn main() {}
