use std::path::PathBuf;

/// The path of a file under the project's `fixtures/` directory.
pub fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}
