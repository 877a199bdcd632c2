//! What the docs checks read: the paths `docs/ARCHITECTURE.md` names (in backticks, with the
//! code-map section each appears in), every folder of a crate, and the relative links and
//! heading anchors of Markdown files. Pure functions over text and the file tree; the checks
//! themselves are `tests/architecture.rs`.

use std::path::{Path, PathBuf};

/// A file or folder the architecture doc names, as written between backticks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedPath {
    /// The crate folder (`host/core`) of the code-map section it appears in (a `### `
    /// heading that names the crate's folder in backticks), or `None` outside those.
    pub section: Option<String>,
    /// The path as written (`src/ppu/`, `.ci/`, `main.rs`).
    pub path: String,
    /// The line it is on (1-based), for messages.
    pub line: usize,
}

/// File extensions that make a backticked word a file name.
const FILE_EXTENSIONS: [&str; 14] = [
    "rs", "md", "toml", "py", "pyi", "lua", "tsv", "asm", "png", "c", "sh", "gbm", "json", "txt",
];

/// Whether `word` (the text between two backticks) reads as a path: a folder (ending in `/`)
/// or a file with a known extension, with no spaces, globs, `::` or `..`.
fn is_path(word: &str) -> bool {
    let plain = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c));
    if !plain || word.contains("..") || word.starts_with('/') || word.is_empty() {
        return false;
    }
    if word.ends_with('/') {
        return word.len() > 1;
    }
    word.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && FILE_EXTENSIONS.contains(&ext))
}

/// Every path `doc` names in backticks, each with the crate section it is in (`crates`: the
/// workspace members' folders). Code blocks are skipped.
pub fn named_paths(doc: &str, crates: &[String]) -> Vec<NamedPath> {
    let mut out = Vec::new();
    let mut section = None;
    let mut in_code = false;
    for (i, line) in doc.lines().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if line.starts_with('#') {
            section = crates
                .iter()
                .find(|c| line.starts_with("### ") && line.contains(&format!("`{c}`")))
                .cloned();
        }
        for (k, word) in line.split('`').enumerate() {
            if k % 2 == 1 && is_path(word) {
                out.push(NamedPath {
                    section: section.clone(),
                    path: word.to_owned(),
                    line: i + 1,
                });
            }
        }
    }
    out
}

/// Where a named path is, if it exists: a path with a `/` is looked up from its section's
/// crate folder, then from the repository root; a bare file name anywhere under the crate
/// folder (or the repository, outside a crate section).
pub fn resolve(root: &Path, named: &NamedPath) -> Option<PathBuf> {
    let base = named
        .section
        .as_ref()
        .map_or_else(|| root.to_path_buf(), |c| root.join(c));
    let trimmed = named.path.trim_end_matches('/');
    if named.path.contains('/') {
        return [base.join(trimmed), root.join(trimmed)]
            .into_iter()
            .find(|p| p.exists());
    }
    find_file(&base, trimmed)
}

/// A file named `name` under `dir` (not in `target` or hidden folders).
fn find_file(dir: &Path, name: &str) -> Option<PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        let file = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if file.starts_with('.') || file == "target" {
                continue;
            }
            if let Some(found) = find_file(&p, name) {
                return Some(found);
            }
        } else if file == name {
            return Some(p);
        }
    }
    None
}

/// Every folder under `dir` (not `target`, hidden or `__pycache__` ones, nor a module's folder
/// holding only its test files), as paths relative
/// to `dir` with `/` separators.
pub fn folders(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out.sort();
    out
}

/// Whether `dir` holds nothing but test files (`tests.rs`, `*_tests.rs`).
fn only_tests(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut any = false;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.path().is_dir() || !(name == "tests.rs" || name.ends_with("_tests.rs")) {
            return false;
        }
        any = true;
    }
    any
}

fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !e.path().is_dir() || name.starts_with('.') || name == "target" || name.starts_with("__")
        {
            continue;
        }
        if only_tests(&e.path()) {
            // A module's folder that holds only its test files (`state/tests.rs` beside
            // `state.rs`) is part of that module, not a place of its own on the map.
            continue;
        }
        let rel = format!("{prefix}{name}");
        walk(&e.path(), &format!("{rel}/"), out);
        out.push(rel);
    }
}

/// The targets of the inline links and images of a Markdown text (`[text](target)`),
/// outside code blocks and code spans, with their line numbers.
pub fn links(md: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (i, line) in md.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 1 {
                continue;
            }
            let mut rest = part;
            while let Some(at) = rest.find("](") {
                rest = &rest[at + 2..];
                let end = rest.find(')').unwrap_or(rest.len());
                let target = rest[..end].split_whitespace().next().unwrap_or("");
                out.push((i + 1, target.to_owned()));
                rest = &rest[end..];
            }
        }
    }
    out
}

/// The anchors of a Markdown text's headings, as GitHub makes them: lower case, spaces to
/// `-`, every character but letters, digits, `-` and `_` dropped.
pub fn anchors(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        out.push(slug);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_read_with_their_sections() {
        let doc = "# A\n`docs/` and `x.rs`, not `Gb::run` or `a b/`\n### `host/core` (`gb-core`)\n\
                   - `src/ppu/`: `*.tsv`\n```\n`src/not/`\n```\n## Other\n`.ci/`\n";
        let crates = vec!["host/core".to_owned()];
        let named = named_paths(doc, &crates);
        let got: Vec<(Option<&str>, &str)> = named
            .iter()
            .map(|n| (n.section.as_deref(), n.path.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (None, "docs/"),
                (None, "x.rs"),
                (Some("host/core"), "src/ppu/"),
                (None, ".ci/")
            ]
        );
    }

    #[test]
    fn links_and_anchors() {
        let md = "# The REPL\n## The TAS editor's commands\nsee [a](app.md#x) and \
                  ![p](images/p.png), not `[c](d)`\n";
        assert_eq!(
            links(md),
            [(3, "app.md#x".to_owned()), (3, "images/p.png".to_owned())]
        );
        assert_eq!(anchors(md), ["the-repl", "the-tas-editors-commands"]);
    }
}
