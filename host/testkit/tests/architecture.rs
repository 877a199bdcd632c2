//! The architecture checks on the whole repository: no import circle between the modules of
//! any crate or test binary, test code included, and `docs/ARCHITECTURE.md`'s code map names
//! every crate and top-level folder.

use gb_testkit::arch::{Graph, repo_root, show, workspace_members};

#[test]
fn no_import_circle_in_any_crate() {
    let root = repo_root();
    let mut report = String::new();
    for member in workspace_members(&root).expect("workspace members") {
        let src = root.join(&member).join("src");
        let graph = Graph::of_crate(&src).expect("crate sources parse");
        assert!(
            graph.modules.len() > 1 || member.contains("testkit"),
            "{member}: no modules found"
        );
        // The crate, then each of its test binaries made of modules (`tests/NAME/main.rs`).
        let mut crates = vec![(member.clone(), graph)];
        let tests = std::fs::read_dir(root.join(&member).join("tests"))
            .into_iter()
            .flatten();
        let mut test_dirs: Vec<_> = tests
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("main.rs").is_file())
            .collect();
        test_dirs.sort();
        for dir in test_dirs {
            let name = format!(
                "{member}/tests/{}",
                dir.file_name().unwrap().to_string_lossy()
            );
            crates.push((name, Graph::of_crate(&dir).expect("test sources parse")));
        }
        for (member, graph) in &crates {
            report_circles(member, graph, &mut report);
        }
    }
    assert!(report.is_empty(), "import circles:\n{report}");
}

/// Adds `graph`'s import circles to `report`, each with the edges that close it.
fn report_circles(member: &str, graph: &Graph, report: &mut String) {
    for circle in graph.circles() {
        let names: Vec<String> = circle.iter().map(|m| show(m)).collect();
        report.push_str(&format!("{member}: {}\n", names.join(" ↔ ")));
        for m in &circle {
            let to: Vec<String> = graph.edges[m]
                .iter()
                .filter(|t| circle.contains(t))
                .map(|t| show(t))
                .collect();
            report.push_str(&format!("    {} → {}\n", show(m), to.join(", ")));
        }
    }
}

/// The import graph counts test code: a `#[cfg(test)]` module that reaches back into a module
/// naming its file closes a circle, and `self`/`super` inside an inline module are resolved
/// from that module (a file's own `mod tests { use super::*; }` names nothing else).
#[test]
fn test_code_counts_for_circles() {
    let src = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("arch-crate/src");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(src.join("a")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(src.join(name), text).unwrap();
    write("lib.rs", "mod a;\nmod b;\nmod c;\n");
    write("a.rs", "mod inner;\nuse crate::b::B;\n");
    write("a/inner.rs", "pub(crate) struct I(super::super::c::C);\n");
    write(
        "b.rs",
        "pub struct B;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::a::X;\n}\n",
    );
    write(
        "c.rs",
        "pub struct C;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    fn f() { self::g(); }\n}\n",
    );
    let graph = Graph::of_crate(&src).expect("parses");
    let names = |m: &Vec<String>| show(m);
    let circles: Vec<Vec<String>> = graph
        .circles()
        .iter()
        .map(|c| c.iter().map(names).collect())
        .collect();
    assert_eq!(circles, [vec!["a".to_owned(), "b".to_owned()]]);
    let c_edges: Vec<String> = graph.edges[&vec!["c".to_owned()]]
        .iter()
        .map(names)
        .collect();
    assert!(c_edges.is_empty(), "{c_edges:?}");
    let inner: Vec<String> = graph.edges[&vec!["a".to_owned(), "inner".to_owned()]]
        .iter()
        .map(names)
        .collect();
    assert_eq!(inner, ["c"]);
}

/// `docs/ARCHITECTURE.md`'s code map names every crate (its folder and package name) and
/// every top-level folder of the repository.
#[test]
fn the_code_map_names_every_crate_and_folder() {
    let root = repo_root();
    let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut missing = Vec::new();
    for member in workspace_members(&root).expect("workspace members") {
        let manifest = std::fs::read_to_string(root.join(&member).join("Cargo.toml")).unwrap();
        let name = manifest
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .map(|n| n.trim_matches('"').to_owned())
            .expect("package name");
        for needle in [format!("`{member}`"), format!("`{name}`")] {
            if !doc.contains(&needle) {
                missing.push(needle);
            }
        }
    }
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && !name.starts_with('.') && name != "target" {
            let needle = format!("`{name}/`");
            if !doc.contains(&needle) && !doc.contains(&format!("`{name}`")) {
                missing.push(needle);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md does not name: {missing:?}"
    );
}

/// The app builds and runs a bare `Gb` only in the one-shot commands that measure or convert
/// the core alone; everything interactive goes through a `Session` (ARCHITECTURE.md).
#[test]
fn the_app_runs_a_bare_core_only_in_its_one_shot_commands() {
    const ALLOWED: [&str; 5] = [
        "headless.rs",
        "bench.rs",
        "play.rs",
        "state_cli.rs",
        "rom.rs",
    ];
    let src = repo_root().join("host/app/src");
    let mut offenders = Vec::new();
    let mut files = Vec::new();
    collect(&src, &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let builds = ["Gb::new(", "Gb::with_boot_rom(", "Gb::from_"]
            .iter()
            .any(|n| code.contains(n));
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if builds && !ALLOWED.contains(&name.as_str()) {
            offenders.push(f.display().to_string());
        }
    }
    assert!(offenders.is_empty(), "a bare Gb built in {offenders:?}");
}

fn collect(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}
