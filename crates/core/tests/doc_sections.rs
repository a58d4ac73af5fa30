//! Every section a comment or a document cites exists: `docs/generate.md, "Title"` and
//! `BENCHMARKS.md ("Title")` name a heading of that file (or a paragraph that opens with
//! `**Title`), so a reader who follows a pointer finds what it points at. Scans the workspace's
//! sources, scripts and documents (not CHANGELOG.md, which is history, nor this file, whose
//! examples cite nothing).

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            if !matches!(
                name.as_str(),
                "target" | "node_modules" | ".git" | "corpus" | "artifacts"
            ) && !name.starts_with('.')
            {
                walk(&p, out);
            }
        } else if name != "CHANGELOG.md"
            && name != "doc_sections.rs"
            && (p.extension().is_some_and(|x| {
                ["rs", "md", "py", "sh", "js", "mjs", "html", "toml"].contains(&x.to_str().unwrap())
            }) || p.parent().is_some_and(|d| d.ends_with("scripts")))
        {
            out.push(p);
        }
    }
}

/// The text with every line's indentation and comment marker dropped and the lines joined by
/// spaces, so that a title broken over two comment lines reads whole.
fn joined(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut l = line.trim_start();
        for marker in ["//!", "///", "//", "# ", "#!"] {
            if let Some(rest) = l.strip_prefix(marker) {
                l = rest.trim_start();
                break;
            }
        }
        out.push_str(l);
        out.push(' ');
    }
    out
}

/// The cited (file, title) pairs of a text.
fn citations(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find(".md") {
        let end = i + at + 3;
        // The file name: letters, digits, '_', '-' and '/' before ".md".
        let mut start = i + at;
        while start > 0
            && (bytes[start - 1].is_ascii_alphanumeric() || b"_-/".contains(&bytes[start - 1]))
        {
            start -= 1;
        }
        let name = &text[start..end];
        i = end;
        let name = name.trim_start_matches("../").trim_start_matches('/');
        if !(name.starts_with("docs/") || name == "BENCHMARKS.md") {
            continue;
        }
        // Then `, "`, ` ("`, ` "` or `: "`, and the title up to its closing quote.
        let rest = &text[end..];
        let after = rest.trim_start_matches([',', ' ', '(', ':']);
        let Some(quoted) = after.strip_prefix('"').or_else(|| after.strip_prefix('“')) else {
            continue;
        };
        let Some(close) = quoted.find(['"', '”']) else {
            continue;
        };
        let title = quoted[..close].trim().trim_end_matches(['.', '…', ' ']);
        // A quote that opens a string of code rather than a title.
        if !title.starts_with(|c: char| c.is_alphanumeric() || c == '`') {
            continue;
        }
        out.push((name.to_string(), title.to_string()));
    }
    out
}

#[test]
fn every_cited_section_exists() {
    let root = root();
    let mut files = Vec::new();
    walk(&root, &mut files);
    let mut broken = Vec::new();
    let mut checked = 0;
    for f in &files {
        let Ok(text) = fs::read_to_string(f) else {
            continue;
        };
        for (doc, title) in citations(&joined(&text)) {
            let Ok(target) = fs::read_to_string(root.join(&doc)) else {
                broken.push(format!(
                    "{}: cites {doc}, which does not exist",
                    f.display()
                ));
                continue;
            };
            let found = target.lines().any(|l| {
                let h = l.trim_start_matches('#');
                h.len() < l.len() && {
                    let h = h.trim();
                    h.starts_with(&title) || (title.starts_with(h) && !h.is_empty())
                }
            }) || joined(&target).contains(&format!("**{title}"));
            checked += 1;
            if !found {
                broken.push(format!(
                    "{}: cites {doc}, \"{title}\", which has no such section",
                    f.display()
                ));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} citations found: the scan is broken"
    );
    assert!(
        broken.is_empty(),
        "{} broken citations:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

#[test]
fn a_citation_split_over_comment_lines_is_read_whole() {
    let text = "/// as measured (docs/generate.md, \"What the walk and\n/// its searches do\").";
    assert_eq!(
        citations(&joined(text)),
        vec![(
            "docs/generate.md".to_string(),
            "What the walk and its searches do".to_string()
        )]
    );
    assert!(citations("see docs/generate.md for more").is_empty());
}
