//! The architecture checks on the whole repository: no import circle between the modules of
//! any crate, and `docs/ARCHITECTURE.md`'s code map names every crate and top-level folder.

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
    assert!(report.is_empty(), "import circles:\n{report}");
}
