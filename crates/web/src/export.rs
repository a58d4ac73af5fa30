//! `shudu play --export DIR`: the game as a folder any static host serves, with no server. The
//! page is the one `shudu play` serves, marked `<html data-engine="worker">`: it sends its
//! requests to a Web Worker (`worker.js`) running the npm package (the engine in WebAssembly,
//! built by `crates/wasm/build.sh`), and a service worker (`sw.js`) keeps every file so that it
//! plays offline after the first visit. The bank's extreme puzzles go along as `bank.json`: that
//! band takes seconds to make in a page.

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::engine::Band;

/// The files of the npm package the pages need: the classic engine, and the variant engine
/// (`variants.js`) that the variants page loads.
const ENGINE_FILES: [&str; 8] = [
    "index.js",
    "errors.js",
    "engine.js",
    "engine_bg.wasm",
    "variants.js",
    "variants_engine.js",
    "variants_engine_bg.wasm",
    "package.json",
];

/// Why an export failed, with the path it concerns.
#[derive(Debug)]
pub struct ExportError(pub String);

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExportError {}

fn io(path: &Path, what: &str, e: std::io::Error) -> ExportError {
    ExportError(format!("{}: cannot {what}: {e}", path.display()))
}

/// The bank's extreme puzzles as JSON, each with its band, rating, symmetry, hardest technique
/// and class (the other bands are made in the page in milliseconds).
fn bank_json() -> String {
    let list: Vec<serde_json::Value> = crate::bank::all()
        .iter()
        .filter(|b| Band::of(b.rating) == Band::Extreme)
        .map(|b| {
            serde_json::json!({
                "puzzle": b.puzzle.to_line(),
                "band": Band::of(b.rating).name(),
                "rating": b.rating.to_string(),
                "symmetry": b.symmetry.name(),
                "hardest": b.hardest,
                "key": format!("{:016x}", b.key),
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// Writes the offline game into `dir` with the npm package of `engine` (a folder `build.sh`
/// made). The folder is built beside `dir` and renamed into place, so a failed export leaves
/// `dir` as it was; an existing `dir` is replaced only if it is empty or an earlier export
/// (it holds `sw.js`). Returns the files written, relative to `dir`.
///
/// # Errors
/// The engine folder lacks a file, `dir` holds something else, or a file cannot be written.
pub fn export(dir: &Path, engine: &Path) -> Result<Vec<String>, ExportError> {
    for f in ENGINE_FILES {
        if !engine.join(f).is_file() {
            return Err(ExportError(format!(
                "{}: no {f}; expected the npm package that crates/wasm/build.sh builds \
                 (target/npm/shudu)",
                engine.display()
            )));
        }
    }
    if dir.exists() {
        let empty = std::fs::read_dir(dir)
            .map_err(|e| io(dir, "read the folder", e))?
            .next()
            .is_none();
        if !empty && !dir.join("sw.js").is_file() {
            return Err(ExportError(format!(
                "{}: the folder holds files of something else; expected an empty folder or an \
                 earlier export (with sw.js)",
                dir.display()
            )));
        }
    }
    let mut files: Vec<(String, Vec<u8>)> = vec![
        (
            "index.html".into(),
            include_str!("../static/index.html")
                .replacen("<html ", "<html data-engine=\"worker\" ", 1)
                .into_bytes(),
        ),
        (
            "variants.html".into(),
            include_str!("../static/variants.html")
                .replacen("<html ", "<html data-engine=\"worker\" ", 1)
                .into_bytes(),
        ),
        (
            "style.css".into(),
            include_bytes!("../static/style.css").to_vec(),
        ),
        (
            "favicon.svg".into(),
            include_bytes!("../static/favicon.svg").to_vec(),
        ),
        (
            "manifest.webmanifest".into(),
            include_bytes!("../static/manifest.webmanifest").to_vec(),
        ),
        ("fonts/DejaVuSans.ttf".into(), crate::PRINT_FONT.to_vec()),
        (
            "worker.js".into(),
            include_bytes!("../offline/worker.js").to_vec(),
        ),
        ("bank.json".into(), bank_json().into_bytes()),
    ];
    for (name, body) in crate::assets::SCRIPTS {
        files.push((name.to_string(), body.to_vec()));
    }
    for f in ENGINE_FILES {
        let path = engine.join(f);
        let bytes = std::fs::read(&path).map_err(|e| io(&path, "read", e))?;
        files.push((format!("shudu/{f}"), bytes));
    }
    // The service worker's cache is named by a hash of every file, so a new export replaces an
    // old one's cache whole.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for (name, bytes) in &files {
        name.hash(&mut hasher);
        bytes.hash(&mut hasher);
    }
    let mut list = String::from("[\n  './',\n");
    for (name, _) in &files {
        let _ = writeln!(list, "  './{name}',");
    }
    list.push(']');
    let sw = include_str!("../offline/sw.js")
        .replace("@VERSION@", &format!("{:016x}", hasher.finish()))
        .replace("@FILES@", &list);
    files.push(("sw.js".into(), sw.into_bytes()));

    let name = dir
        .file_name()
        .ok_or_else(|| ExportError(format!("{}: expected a folder name", dir.display())))?;
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| io(&parent, "create the folder", e))?;
    let temp = parent.join(format!(
        ".{}.partial-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| {
        let _ = std::fs::remove_dir_all(&temp);
        for (name, bytes) in &files {
            let path = temp.join(name);
            if let Some(p) = path.parent() {
                std::fs::create_dir_all(p).map_err(|e| io(p, "create the folder", e))?;
            }
            std::fs::write(&path, bytes).map_err(|e| io(&path, "write", e))?;
        }
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| io(dir, "replace the folder", e))?;
        }
        std::fs::rename(&temp, dir).map_err(|e| io(dir, "move the export into place", e))
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&temp);
        return Err(e);
    }
    Ok(files.into_iter().map(|(n, _)| n).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_engine(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        for f in ENGINE_FILES {
            std::fs::write(dir.join(f), f).unwrap();
        }
    }

    #[test]
    fn an_export_holds_the_page_the_worker_the_bank_and_a_service_worker_listing_them() {
        let tmp = std::env::temp_dir().join(format!("shudu-export-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let engine = tmp.join("engine");
        fake_engine(&engine);
        let out = tmp.join("site");
        let files = export(&out, &engine).unwrap();
        let html = std::fs::read_to_string(out.join("index.html")).unwrap();
        assert!(html.contains("<html data-engine=\"worker\" "), "{html}");
        let variants = std::fs::read_to_string(out.join("variants.html")).unwrap();
        assert!(
            variants.contains("<html data-engine=\"worker\" "),
            "{variants}"
        );
        let sw = std::fs::read_to_string(out.join("sw.js")).unwrap();
        for f in files.iter().filter(|f| *f != "sw.js") {
            assert!(sw.contains(&format!("'./{f}'")), "sw.js does not list {f}");
            assert!(out.join(f).is_file(), "{f} missing");
        }
        assert!(!sw.contains("@VERSION@") && !sw.contains("@FILES@"));
        let bank: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("bank.json")).unwrap()).unwrap();
        let extreme = bank
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["band"] == "extreme" && p["symmetry"] == "none")
            .count();
        assert!(extreme >= 10, "{extreme} extreme puzzles in the bank");

        // A folder of something else is refused and left as it was; an earlier export is
        // replaced.
        let other = tmp.join("other");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("notes.txt"), "mine").unwrap();
        let e = export(&other, &engine).unwrap_err();
        assert!(e.0.contains("holds files of something else"), "{e}");
        assert_eq!(
            std::fs::read_to_string(other.join("notes.txt")).unwrap(),
            "mine"
        );
        export(&out, &engine).unwrap();
        // A missing engine file is named.
        std::fs::remove_file(engine.join("engine_bg.wasm")).unwrap();
        let e = export(&tmp.join("site2"), &engine).unwrap_err();
        assert!(e.0.contains("no engine_bg.wasm"), "{e}");
        assert!(!tmp.join("site2").exists());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
