//! The architecture checks on the whole repository: no import circle between the modules of
//! any crate or test binary, test code included; `docs/ARCHITECTURE.md`'s code map names every crate, every crate's folders and
//! every top-level folder, and every file and folder it names exists; the app builds a bare
//! core only in its one-shot commands; the session's log is written only where the
//! invariant says; every relative link of the README and `docs/` resolves, and its test
//! command is what CI runs.

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

fn architecture_doc() -> String {
    std::fs::read_to_string(repo_root().join("docs/ARCHITECTURE.md")).expect("ARCHITECTURE.md")
}

/// `docs/ARCHITECTURE.md`'s code map names every crate (a section headed by its folder, and
/// its package name), every folder of every crate (in the crate's section, as `src/ppu/`, or
/// from the repository's root; a folder named puts its parents on the map) and every
/// top-level folder of the repository.
#[test]
fn the_code_map_names_every_crate_and_folder() {
    let root = repo_root();
    let doc = architecture_doc();
    let members = workspace_members(&root).expect("workspace members");
    let named = gb_testkit::docs::named_paths(&doc, &members);
    // A folder is on the map when a path named in it or below it is (`tests/core/` puts
    // `tests/` on it).
    let places: Vec<std::path::PathBuf> = named
        .iter()
        .filter(|n| n.path.contains('/'))
        .filter_map(|n| gb_testkit::docs::resolve(&root, n))
        .collect();
    let names_dir = |dir: &std::path::Path| places.iter().any(|p| p.starts_with(dir));
    let mut missing = Vec::new();
    for member in &members {
        let manifest = std::fs::read_to_string(root.join(member).join("Cargo.toml")).unwrap();
        let name = manifest
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .map(|n| n.trim_matches('"').to_owned())
            .expect("package name");
        for needle in [format!("### `{member}`"), format!("`{name}`")] {
            if !doc.contains(&needle) {
                missing.push(needle);
            }
        }
        for folder in gb_testkit::docs::folders(&root.join(member)) {
            if !names_dir(&root.join(member).join(&folder)) {
                missing.push(format!("{member}: `{folder}/`"));
            }
        }
    }
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && name != ".git" && name != "target" && !names_dir(&entry.path())
        {
            missing.push(format!("`{name}/`"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md does not name: {missing:?}"
    );
}

/// Every file and folder `docs/ARCHITECTURE.md` names exists (a folder from its crate's
/// section or the repository's root; a bare file name somewhere in its crate), so the map
/// cannot keep a file the code no longer has.
#[test]
fn every_file_and_folder_the_code_map_names_exists() {
    let root = repo_root();
    let members = workspace_members(&root).expect("workspace members");
    let stale: Vec<String> = gb_testkit::docs::named_paths(&architecture_doc(), &members)
        .into_iter()
        .filter(|n| gb_testkit::docs::resolve(&root, n).is_none())
        .map(|n| format!("line {}: `{}`", n.line, n.path))
        .collect();
    assert!(
        stale.is_empty(),
        "docs/ARCHITECTURE.md names what does not exist: {stale:?}"
    );
}

/// Every relative link and image of the README and of `docs/` resolves: the file exists,
/// and an anchor into a Markdown file is one of its headings.
#[test]
fn every_relative_link_of_the_docs_resolves() {
    let root = repo_root();
    let mut files = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "md") {
            files.push(e.path());
        }
    }
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let dir = file.parent().unwrap();
        for (line, target) in gb_testkit::docs::links(&text) {
            if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if path.is_empty() {
                file.clone()
            } else {
                dir.join(path)
            };
            let ok = linked.exists()
                && (anchor.is_empty()
                    || linked.extension().is_none_or(|x| x != "md")
                    || std::fs::read_to_string(&linked)
                        .is_ok_and(|t| gb_testkit::docs::anchors(&t).iter().any(|a| a == anchor)));
            if !ok {
                let shown = file
                    .strip_prefix(&root)
                    .unwrap_or(file)
                    .display()
                    .to_string();
                broken.push(format!("{shown}:{line}: {target}"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links: {broken:#?}");
}

/// The app builds and runs a bare `Gb` only in the one-shot commands that measure or convert
/// the core alone; everything interactive goes through a `Session` (ARCHITECTURE.md).
#[test]
fn the_app_runs_a_bare_core_only_in_its_one_shot_commands() {
    const ALLOWED: [&str; 5] = [
        "cli/headless.rs",
        "bench/mod.rs",
        "cli/play.rs",
        "cli/state.rs",
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
        let name = f
            .strip_prefix(&src)
            .unwrap_or(&f)
            .to_string_lossy()
            .replace('\\', "/");
        if builds && !ALLOWED.contains(&name.as_str()) {
            offenders.push(f.display().to_string());
        }
    }
    assert!(offenders.is_empty(), "a bare Gb built in {offenders:?}");
}

/// The session's event log is written only where ARCHITECTURE.md's invariant says outside
/// input enters: the input methods and the fork (`input.rs`), state loads (`states.rs`), the
/// console's pokes (`console.rs`) and the scripts' live file reads (`hooks.rs`). A new place
/// that logs is a change of the invariant: say it there, then add it here.
#[test]
fn the_session_logs_outside_input_only_where_the_invariant_says() {
    const ALLOWED: [&str; 4] = [
        "session/input.rs",
        "session/states.rs",
        "session/console.rs",
        "session/hooks.rs",
    ];
    let src = repo_root().join("host/session/src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    let mut offenders = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if (code.contains("log_now(") || code.contains(".log.push("))
            && !ALLOWED.contains(&rel.as_str())
        {
            offenders.push(rel);
        }
    }
    assert!(
        offenders.is_empty(),
        "the event log is written in {offenders:?}, which docs/ARCHITECTURE.md's invariant \
         (every outside input is a logged event) does not name"
    );
}

/// The README's test command is what CI runs: the one command in its "Test it" section is
/// the script `.ci/run` hands over to.
#[test]
fn the_readme_test_command_is_what_ci_runs() {
    let root = repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme
        .split("\n## ")
        .find(|s| s.starts_with("Test it"))
        .expect("a \"Test it\" section in the README");
    let command = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a sh block in \"Test it\"")
        .trim();
    let run = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    assert!(
        run.lines().any(|l| l.trim() == format!("exec {command}")),
        "the README's test command `{command}` is not what .ci/run runs:\n{run}"
    );
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
