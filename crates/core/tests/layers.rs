//! Layers that point one way: no circle among the modules of `shudu-core`.
//!
//! Reads every source file of the crate, collects the paths it names (`crate::…` and `super::…`
//! in `use` lines and in code, braces expanded, re-exports of `lib.rs` and `mod.rs` followed to
//! the module that defines the item), and fails on any cycle of the module graph, naming it. A
//! module may use its parent's items and its children's (a parent declares its children), so
//! those edges are left out; tests (`#[cfg(test)]` modules) are left out too.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Module path (`""` for the crate root, `logic::forcing`) of a source file under `src`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let parts: Vec<&str> = parts
        .iter()
        .map(String::as_str)
        .filter(|p| *p != "mod" && *p != "lib")
        .collect();
    parts.join("::")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without comments, string literals and its test modules.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            // The test-only item that follows (a test module, most often), to the end of its
            // braces or to its `;`.
            let (mut depth, mut opened) = (0i32, false);
            for l in lines.by_ref() {
                for c in l.chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            opened = true;
                        }
                        '}' => depth -= 1,
                        _ => {}
                    }
                }
                if (opened && depth <= 0) || (!opened && l.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        let mut s = String::new();
        let mut chars = line.chars().peekable();
        let mut in_str = false;
        while let Some(c) = chars.next() {
            if in_str {
                if c == '\\' {
                    chars.next();
                } else if c == '"' {
                    in_str = false;
                }
                continue;
            }
            if c == '/' && chars.peek() == Some(&'/') {
                break;
            }
            if c == '"' {
                in_str = true;
                continue;
            }
            s.push(c);
        }
        out.push_str(&s);
        out.push('\n');
    }
    out
}

/// Every path the code names, starting with `crate` or `super` (brace groups of `use` lines
/// expanded), as lists of segments.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let word_start = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let rest = &code[i..];
        if word_start && (rest.starts_with("crate::") || rest.starts_with("super::")) {
            let (tree, len) = use_tree(rest);
            out.extend(tree);
            i += len.max(1);
        } else {
            i += 1;
        }
    }
    out
}

/// Parses a path or use tree at the start of `s`: the paths it names and its length.
fn use_tree(s: &str) -> (Vec<Vec<String>>, usize) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut prefix = Vec::new();
    loop {
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if i > start {
            prefix.push(s[start..i].to_string());
        }
        if s[i..].starts_with("::{") {
            i += 3;
            let mut out = Vec::new();
            loop {
                while i < b.len() && (b[i] as char).is_whitespace() || b.get(i) == Some(&b',') {
                    i += 1;
                }
                if i >= b.len() || b[i] == b'}' {
                    i += 1;
                    break;
                }
                let (sub, len) = use_tree(&s[i..]);
                for p in sub {
                    let mut full = prefix.clone();
                    full.extend(p.into_iter().filter(|x| x != "self"));
                    out.push(full);
                }
                i += len.max(1);
                // Skip an `as name` alias.
                while i < b.len() && !matches!(b[i], b',' | b'}') {
                    i += 1;
                }
            }
            return (out, i);
        } else if s[i..].starts_with("::") {
            i += 2;
        } else {
            return (vec![prefix], i);
        }
    }
}

#[test]
fn modules_form_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    for f in &all {
        let m = module_of(&src, f);
        // A test module in its own file (`mod tests;` under `#[cfg(test)]`).
        if m == "tests" || m.ends_with("::tests") {
            continue;
        }
        modules.insert(m, code(&fs::read_to_string(f).unwrap()));
    }
    // Re-exports: module and name → the module that defines it.
    let mut reexports: BTreeMap<(String, String), String> = BTreeMap::new();
    for (m, text) in &modules {
        for line in text.lines() {
            let t = line.trim_start();
            let Some(rest) = t
                .strip_prefix("pub use ")
                .or_else(|| t.strip_prefix("pub(crate) use "))
            else {
                continue;
            };
            let (tree, _) = use_tree(rest);
            for p in tree {
                if let Some((name, from)) = p.split_last() {
                    let base: Vec<String> = if m.is_empty() {
                        vec![]
                    } else {
                        m.split("::").map(String::from).collect()
                    };
                    let mut target = base;
                    target.extend(from.iter().cloned());
                    reexports.insert((m.clone(), name.clone()), target.join("::"));
                }
            }
        }
    }
    let is_module = |m: &str| modules.contains_key(m);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, text) in &modules {
        let here: Vec<String> = if m.is_empty() {
            vec![]
        } else {
            m.split("::").map(String::from).collect()
        };
        for p in paths(text) {
            // Resolve `crate` and `super`s to an absolute path.
            let mut abs: Vec<String> = here.clone();
            let mut segs = p.as_slice();
            if segs.first().map(String::as_str) == Some("crate") {
                abs.clear();
                segs = &segs[1..];
            }
            while segs.first().map(String::as_str) == Some("super") {
                abs.pop();
                segs = &segs[1..];
            }
            abs.extend(segs.iter().cloned());
            // The longest prefix that is a module; an item re-exported there leads on.
            let mut target = String::new();
            for k in (0..=abs.len()).rev() {
                let cand = abs[..k].join("::");
                if is_module(&cand) {
                    target = cand.clone();
                    if let Some(name) = abs.get(k) {
                        if let Some(t) = reexports.get(&(cand, name.clone())) {
                            if is_module(t) {
                                target = t.clone();
                            }
                        }
                    }
                    break;
                }
            }
            let related = |a: &str, b: &str| {
                a.is_empty()
                    || b.is_empty()
                    || a.starts_with(&format!("{b}::"))
                    || b.starts_with(&format!("{a}::"))
            };
            if target != *m && !related(m, &target) {
                edges.entry(m.clone()).or_default().insert(target);
            }
        }
    }
    assert!(
        edges
            .iter()
            .any(|(m, e)| m.starts_with("logic::forcing") && e.contains("logic::nested")),
        "the graph lost a known edge (forcing uses nested): {edges:?}"
    );
    // Depth-first search for a cycle.
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        stack.push(m.to_string());
        for n in edges.get(m).into_iter().flatten() {
            match state.get(n.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|s| s == n).unwrap();
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(n.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(n, edges, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in modules.keys() {
        if state.get(m).copied().unwrap_or(0) == 0 {
            if let Some(cycle) = visit(m, &edges, &mut state, &mut Vec::new()) {
                panic!(
                    "modules of shudu-core form a circle: {} (the lower layer must not use the higher)",
                    cycle.join(" -> ")
                );
            }
        }
    }
}
