//! Unsafe-code audit: `unsafe` appears only in the `arena` and `ffi` modules, which are the
//! only ones allowed it; every `unsafe` block and impl has a `// SAFETY:` comment; the crate
//! denies `unsafe_op_in_unsafe_fn` (and the workspace denies `unsafe_code` everywhere else).

use std::fs;
use std::path::Path;

const UNSAFE_MODULES: [&str; 2] = ["arena.rs", "ffi.rs"];

/// Whether `line` has the word `unsafe` outside a `//` comment.
fn has_unsafe_word(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    code.match_indices("unsafe").any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + 6..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !word(before) && !word(after)
    })
}

fn sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    assert!(files.len() >= 5, "sources not found");
    files
}

#[test]
fn unsafe_only_in_arena_and_ffi() {
    for (name, text) in sources() {
        if UNSAFE_MODULES.contains(&name.as_str()) {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            assert!(
                !has_unsafe_word(line),
                "{name}:{}: `unsafe` outside the arena and FFI modules: {line}",
                n + 1
            );
        }
    }
}

#[test]
fn lib_allows_unsafe_only_on_arena_and_ffi() {
    let lib = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    assert!(lib.contains("#![deny(unsafe_op_in_unsafe_fn)]"));
    let lines: Vec<&str> = lib.lines().map(str::trim).collect();
    let mut allowed = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.contains("allow(unsafe_code)") {
            allowed.push(lines[i + 1]);
        }
    }
    assert_eq!(allowed, ["mod arena;", "mod ffi;"]);
}

#[test]
fn every_unsafe_block_has_a_safety_comment() {
    let mut blocks = 0;
    for (name, text) in sources() {
        if !UNSAFE_MODULES.contains(&name.as_str()) {
            continue;
        }
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let is_block =
                code.contains("unsafe {") || code.trim_start().starts_with("unsafe impl");
            if !is_block || !has_unsafe_word(line) {
                continue;
            }
            blocks += 1;
            // The comment block right above (or the line itself) holds a SAFETY comment.
            let mut ok = line.contains("// SAFETY:");
            let mut k = n;
            while !ok && k > 0 {
                k -= 1;
                let prev = lines[k].trim();
                if prev.starts_with("// SAFETY:") {
                    ok = true;
                } else if !prev.starts_with("//") {
                    break;
                }
            }
            assert!(
                ok,
                "{name}:{}: unsafe block without a SAFETY comment",
                n + 1
            );
        }
    }
    assert!(
        blocks > 30,
        "only {blocks} unsafe blocks found: audit is not looking"
    );
}
