//! The solver's two paths give the same output: the band updates in AVX-512 vectors (the default
//! where the CPU has them) and the scalar ones (`SHUDU_SIMD=off`), on every data set of
//! `../shared/data` and for the generator's modes that search most. The oracle tests
//! (`crates/core/tests/solver_corpus.rs`) check the default path against an independent solver;
//! equal output here carries that check to the other path.

use std::path::PathBuf;

use assert_cmd::Command;

/// `../shared/data` beside the repository (or `SHUDU_DATA`).
fn data_dir() -> PathBuf {
    std::env::var_os("SHUDU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
}

/// The output of `shudu ARGS` (which must succeed, or exit 1 for puzzles without one solution),
/// with the vector path allowed or turned off.
fn run(args: &[&str], scalar: bool) -> Vec<u8> {
    let mut cmd = Command::cargo_bin("shudu").unwrap();
    cmd.args(args);
    if scalar {
        cmd.env("SHUDU_SIMD", "off");
    } else {
        cmd.env_remove("SHUDU_SIMD");
    }
    let out = cmd.output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "shudu {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn both_paths_solve_every_data_set_alike() {
    let sets = [
        "puzzles2_17_clue",
        "puzzles3_magictour_top1465",
        "puzzles5_forum_hardest_1905_11+",
        "puzzles6_forum_hardest_1106",
        "puzzles7_serg_benchmark",
        "generated_tdoku_minimal_100k",
        "norvig_top95.txt",
        "norvig_hardest.txt",
    ];
    let tmp = tempfile::tempdir().unwrap();
    for name in sets {
        let path = data_dir().join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "{}: missing",
                path.display()
            );
            eprintln!("{}: missing, skipped", path.display());
            continue;
        };
        // At most 20,000 lines of each (the large sets have 49,000-100,000).
        let part = tmp.path().join(name);
        let lines: Vec<&str> = text.lines().take(20_000).collect();
        std::fs::write(&part, lines.join("\n") + "\n").unwrap();
        let part = part.to_str().unwrap();
        let args = ["solve", "--threads", "1", part];
        let vector = run(&args, false);
        assert!(vector.len() > 500, "{name}: {} bytes", vector.len());
        assert!(vector == run(&args, true), "{name}: the two paths differ");
    }
}

#[test]
fn both_paths_generate_alike() {
    for args in [
        &["generate", "-n", "150", "--minimal", "--symmetry", "rot180"][..],
        &["generate", "-n", "300", "--minimal"][..],
        &[
            "generate",
            "-n",
            "60",
            "--minimal",
            "--symmetry",
            "mirror-h",
        ][..],
        &["generate", "-n", "5", "--givens", "22"][..],
    ] {
        let args: Vec<&str> = args
            .iter()
            .copied()
            .chain(["--seed", "7", "--threads", "1"])
            .collect();
        let vector = run(&args, false);
        assert!(vector.len() > 300, "{args:?}");
        assert!(vector == run(&args, true), "{args:?}: the two paths differ");
    }
}
