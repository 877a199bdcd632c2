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
    let doc = spec::markdown() + &gb_session::catalog::markdown();
    check("docs/lua-api.md", &doc);
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

#[test]
fn every_name_of_the_emulators_apis_can_be_looked_up() {
    use gb_session::catalog::{LAYERS, Status, probe};
    for (flavor, title, _) in LAYERS {
        let probed = probe(flavor);
        assert!(!probed.is_empty(), "{title}: an empty catalog");
        let missing: Vec<String> = probed
            .iter()
            .filter(|(_, s)| *s == Status::Missing)
            .map(|(e, _)| e.path(flavor))
            .collect();
        assert!(
            missing.is_empty(),
            "{title}: looking these up fails: {missing:?}"
        );
    }
}

#[test]
fn the_layers_luals_definitions_are_up_to_date() {
    use gb_session::catalog::{LAYERS, luals};
    for (flavor, _, file) in LAYERS {
        check(&format!("scripts/types/{file}.d.lua"), &luals(flavor));
    }
}
