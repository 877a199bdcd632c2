//! The architecture checks: each crate's module import graph (which module's code names which
//! other module), its import circles, and the code map of `docs/ARCHITECTURE.md`.
//!
//! A module is a source file (`a.rs` and `a/mod.rs` are module `a`, `a/b.rs` is `a::b`); its
//! edges are the `crate::`, `super::` and `self::` paths its code names, in `use` items and
//! anywhere else (types, calls), test code (`#[cfg(test)]` items and modules) included: a
//! test that reaches back into a module that names its file is a circle too. Paths inside an
//! inline module (`mod tests { use super::*; }`) are resolved from that module, and count as
//! the file's. A path is resolved to the deepest module file it names; a name re-exported at
//! the crate root (`pub use x::Name` in `lib.rs`) resolves to the module it comes from. An
//! import circle is a strongly connected group of two or more modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module path inside a crate (`[]` is the crate root).
pub type ModPath = Vec<String>;

/// One crate's modules and the edges between them.
#[derive(Debug, Default)]
pub struct Graph {
    /// Every module found, with the file it lives in.
    pub modules: BTreeMap<ModPath, PathBuf>,
    /// Module → the modules its code names.
    pub edges: BTreeMap<ModPath, BTreeSet<ModPath>>,
}

/// The module path of `file` under the crate's `src` folder.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if !matches!(stem, "mod" | "lib" | "main") {
            parts.push(stem.to_owned());
        }
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Collects the paths a file's code names, made absolute (from the crate root).
struct Paths {
    /// The module the paths being read are written in: the file's, or an inline module's
    /// inside it.
    here: ModPath,
    /// The names of the module's child modules (`use child::X` is relative to it).
    children: Vec<String>,
    found: Vec<ModPath>,
}

impl Paths {
    /// Make `segments` (as written) absolute, or None for paths outside the crate.
    fn absolute(&self, segments: &[String]) -> Option<ModPath> {
        let first = segments.first()?;
        let mut base = match first.as_str() {
            "crate" => Vec::new(),
            "self" => self.here.clone(),
            "super" => self.here.clone(),
            child if self.children.iter().any(|c| c == child) => {
                let mut p = self.here.clone();
                p.push(child.to_owned());
                return Some(p.into_iter().chain(segments[1..].iter().cloned()).collect());
            }
            _ => return None,
        };
        let mut rest = &segments[1..];
        if first == "super" {
            base.pop();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                self.push(prefix);
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.push(prefix);
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.push(prefix),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }

    fn push(&mut self, segments: &[String]) {
        if let Some(p) = self.absolute(segments) {
            self.found.push(p);
        }
    }
}

/// The inline modules declared among `items` (`mod name { … }`).
fn inline_modules(items: &[syn::Item]) -> Vec<String> {
    items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if m.content.is_some() => Some(m.ident.to_string()),
            _ => None,
        })
        .collect()
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        match item {
            syn::Item::Use(u) => self.use_tree(&mut Vec::new(), &u.tree),
            syn::Item::Mod(m) => {
                if let Some((_, items)) = &m.content {
                    // Inside, `self` and `super` are the inline module's; its children are
                    // the inline modules it declares.
                    self.here.push(m.ident.to_string());
                    let children = std::mem::replace(&mut self.children, inline_modules(items));
                    for item in items {
                        self.visit_item(item);
                    }
                    self.children = children;
                    self.here.pop();
                }
            }
            _ => syn::visit::visit_item(self, item),
        }
    }

    // `pub(super)` and `pub(in path)` restrict visibility; they import nothing.
    fn visit_vis_restricted(&mut self, _: &'ast syn::VisRestricted) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.push(&segments);
        syn::visit::visit_path(self, path);
    }
}

/// The names the crate root re-exports (`pub use a::b::Name;` → `Name` → module `a::b`, or
/// `a::b::Name` itself when that is a module).
fn root_reexports(
    root: &syn::File,
    modules: &BTreeMap<ModPath, PathBuf>,
) -> BTreeMap<String, ModPath> {
    let mut out = BTreeMap::new();
    let mut paths = Paths {
        here: Vec::new(),
        children: Vec::new(),
        found: Vec::new(),
    };
    for item in &root.items {
        if let syn::Item::Use(u) = item
            && matches!(u.vis, syn::Visibility::Public(_))
        {
            let mut found = Vec::new();
            std::mem::swap(&mut paths.found, &mut found);
            // Root `use` trees name modules of this crate without `crate::`.
            let mut prefix = vec!["crate".to_owned()];
            paths.use_tree(&mut prefix, &u.tree);
            for p in std::mem::take(&mut paths.found) {
                if let Some(name) = p.last() {
                    out.insert(name.clone(), deepest_module(&p, modules));
                }
            }
        }
    }
    out
}

/// The deepest module that `path` names (a prefix of it, or the whole of it).
fn deepest_module(path: &[String], modules: &BTreeMap<ModPath, PathBuf>) -> ModPath {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains_key(p))
        .unwrap_or_default()
}

impl Graph {
    /// Read the crate whose sources are under `src` (with `lib.rs` or `main.rs` as its root).
    pub fn of_crate(src: &Path) -> Result<Graph, String> {
        let mut files = Vec::new();
        rust_files(src, &mut files);
        files.sort();
        let mut graph = Graph::default();
        let mut parsed = Vec::new();
        for f in &files {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            let ast = syn::parse_file(&text).map_err(|e| format!("{}: {e}", f.display()))?;
            let m = module_of(src, f);
            graph.modules.insert(m.clone(), f.clone());
            parsed.push((m, ast));
        }
        let root = parsed
            .iter()
            .find(|(m, _)| m.is_empty())
            .map(|(_, ast)| root_reexports(ast, &graph.modules))
            .unwrap_or_default();
        for (m, ast) in &parsed {
            let children = graph
                .modules
                .keys()
                .filter(|c| c.len() == m.len() + 1 && c.starts_with(m))
                .filter_map(|c| c.last().cloned())
                .chain(inline_modules(&ast.items))
                .collect();
            let mut paths = Paths {
                here: m.clone(),
                children,
                found: Vec::new(),
            };
            paths.visit_file(ast);
            let targets = graph.edges.entry(m.clone()).or_default();
            for p in paths.found {
                let mut target = deepest_module(&p, &graph.modules);
                if target.is_empty()
                    && let Some(name) = p.first()
                    && let Some(t) = root.get(name)
                {
                    target.clone_from(t);
                }
                // The root only declares and re-exports; edges to it say nothing.
                if !target.is_empty() && target != *m {
                    targets.insert(target);
                }
            }
        }
        Ok(graph)
    }

    /// The import circles: groups of two or more modules that reach each other (Tarjan).
    pub fn circles(&self) -> Vec<Vec<ModPath>> {
        struct Tarjan<'g> {
            g: &'g Graph,
            index: BTreeMap<&'g ModPath, usize>,
            low: BTreeMap<&'g ModPath, usize>,
            stack: Vec<&'g ModPath>,
            on: BTreeSet<&'g ModPath>,
            out: Vec<Vec<ModPath>>,
        }
        impl<'g> Tarjan<'g> {
            fn visit(&mut self, v: &'g ModPath) {
                let i = self.index.len();
                self.index.insert(v, i);
                self.low.insert(v, i);
                self.stack.push(v);
                self.on.insert(v);
                for w in self.g.edges.get(v).into_iter().flatten() {
                    if !self.index.contains_key(w) {
                        self.visit(w);
                        let lw = self.low[w];
                        let lv = self.low.get_mut(v).expect("visited");
                        *lv = (*lv).min(lw);
                    } else if self.on.contains(w) {
                        let iw = self.index[w];
                        let lv = self.low.get_mut(v).expect("visited");
                        *lv = (*lv).min(iw);
                    }
                }
                if self.low[v] == self.index[v] {
                    let mut group = Vec::new();
                    while let Some(w) = self.stack.pop() {
                        self.on.remove(w);
                        group.push(w.clone());
                        if w == v {
                            break;
                        }
                    }
                    if group.len() > 1 {
                        group.sort();
                        self.out.push(group);
                    }
                }
            }
        }
        let mut t = Tarjan {
            g: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on: BTreeSet::new(),
            out: Vec::new(),
        };
        for v in self.modules.keys() {
            if !t.index.contains_key(v) {
                t.visit(v);
            }
        }
        t.out
    }
}

/// `a::b` for a module path (`crate` for the root).
pub fn show(m: &[String]) -> String {
    if m.is_empty() {
        "crate".to_owned()
    } else {
        m.join("::")
    }
}

/// The workspace members listed in the root `Cargo.toml` (folder paths).
pub fn workspace_members(root: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(root.join("Cargo.toml")).map_err(|e| e.to_string())?;
    let start = text
        .find("members")
        .ok_or("no `members` in the workspace's Cargo.toml")?;
    let list = &text[start..];
    let open = list.find('[').ok_or("`members` is not a list")?;
    let close = list.find(']').ok_or("`members` is not a list")?;
    Ok(list[open + 1..close]
        .split(',')
        .map(|s| s.trim().trim_matches('"').to_owned())
        .filter(|s| !s.is_empty())
        .collect())
}

/// The repository root (two folders above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
