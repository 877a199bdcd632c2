//! What the test modules share: running the real binary and reading what it printed.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The state key the tests' `gbhost` processes use (`GBHOST_STATE_KEY`), under Cargo's
/// temporary directory: tests never create one in the user's home.
pub fn state_key() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("state.key")
}

/// Run `gbhost` with `args` to its end.
pub fn gbhost(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gbhost"))
        .args(args)
        .env("GBHOST_STATE_KEY", state_key())
        .env(
            "GBHOST_SCRIPT_DATA",
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("script-data"),
        )
        .output()
        .expect("run gbhost")
}

/// A module's own folder under Cargo's temporary directory (created).
pub fn tmp_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Standard output, then standard error, for assertions and failure messages.
pub fn text(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
