//! The API is described once (`src/api/spec.rs`); `docs/lua-api.md` and
//! `scripts/types/gbhost.d.lua` are generated from it and must not go stale.
//! `GBHOST_UPDATE_API_DOCS=1 cargo test -p gb-session --test session -- api_docs` rewrites them.

use gb_session::api::spec;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(path: &str, generated: &str) {
    let file = root().join(path);
    if std::env::var_os("GBHOST_UPDATE_API_DOCS").is_some() {
        std::fs::create_dir_all(file.parent().expect("parent")).expect("folder");
        std::fs::write(&file, generated).expect("write");
        return;
    }
    let on_disk = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        on_disk == generated,
        "{path} is stale: run GBHOST_UPDATE_API_DOCS=1 cargo test -p gb-session --test session -- api_docs"
    );
}

#[test]
fn the_reference_is_up_to_date() {
    check("docs/lua-api.md", &spec::markdown());
}

#[test]
fn the_luals_definitions_are_up_to_date() {
    check("scripts/types/gbhost.d.lua", &spec::luals());
}

#[test]
fn every_host_function_has_a_unique_id_and_name() {
    let fns = spec::functions();
    let mut ids: Vec<u32> = fns.iter().filter_map(|f| f.host).collect();
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate host ids");
    let mut names: Vec<&str> = fns.iter().map(|f| f.name.as_str()).collect();
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n, "duplicate names");
    assert!(
        fns.iter()
            .all(|f| f.name.split('.').count() == 2 && !f.doc.is_empty())
    );
}
