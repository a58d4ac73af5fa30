//! `shudu completions` and `shudu man`: generated from the clap definitions, they name every
//! subcommand, parse in their shell and render as manual pages.

use std::process::Command as StdCommand;

use assert_cmd::Command;

fn shudu() -> Command {
    Command::cargo_bin("shudu").unwrap()
}

/// The subcommands, as `shudu --help` lists them (without `help`).
fn subcommands() -> Vec<String> {
    let out = shudu().arg("--help").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let list: Vec<String> = text
        .split("Commands:")
        .nth(1)
        .expect("--help lists the commands")
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect();
    assert!(list.len() >= 12, "{list:?}");
    list
}

#[test]
fn bash_completion_parses_and_names_every_subcommand() {
    let out = shudu().args(["completions", "bash"]).output().unwrap();
    assert!(out.status.success());
    let script = String::from_utf8(out.stdout).unwrap();
    for sub in subcommands() {
        assert!(
            script.contains(&format!("shudu__{sub}")) || script.contains(&sub),
            "{sub}"
        );
    }
    assert!(script.contains("--difficulty") && script.contains("--symmetry"));
    let path = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(path.path(), &script).unwrap();
    let check = StdCommand::new("bash")
        .arg("-n")
        .arg(path.path())
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn every_shell_gets_a_script_naming_the_subcommands() {
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = shudu().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for sub in subcommands() {
            assert!(script.contains(&sub), "{shell} lacks {sub}");
        }
    }
    // An unknown shell is refused, naming the ones there are.
    let out = shudu().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("tcsh") && err.contains("bash"), "{err}");
}

#[test]
fn the_manual_page_lists_the_subcommands_and_renders() {
    let out = shudu().arg("man").output().unwrap();
    assert!(out.status.success());
    let roff = String::from_utf8(out.stdout).unwrap();
    assert!(
        roff.contains(".TH shudu 1"),
        "{}",
        &roff[..200.min(roff.len())]
    );
    for sub in subcommands() {
        assert!(roff.contains(&sub), "shudu.1 lacks {sub}");
    }
    // Rendered by groff as man does (preconv for the UTF-8), when the machine has it (CI
    // installs it).
    if StdCommand::new("groff").arg("-v").output().is_ok() {
        let page = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(page.path(), &roff).unwrap();
        let text = StdCommand::new("groff")
            .args(["-k", "-man", "-Tutf8", "-ww", "-P-cbou"])
            .arg(page.path())
            .output()
            .unwrap();
        assert!(text.status.success());
        let shown = String::from_utf8_lossy(&text.stdout);
        assert!(
            shown.contains("NAME") && shown.contains("generate"),
            "{shown}"
        );
        assert!(
            text.stderr.is_empty(),
            "groff warns: {}",
            String::from_utf8_lossy(&text.stderr)
        );
    }
}

#[test]
fn man_out_writes_a_page_for_each_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    shudu()
        .args(["man", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut want: Vec<String> = subcommands()
        .iter()
        .map(|s| format!("shudu-{s}.1"))
        .collect();
    want.push("shudu.1".into());
    want.sort();
    assert_eq!(names, want);
    let generate = std::fs::read_to_string(dir.path().join("shudu-generate.1")).unwrap();
    assert!(generate.contains(".TH shudu-generate 1") && generate.contains("difficulty"));
    // Not a directory: a clear error, nothing written.
    let file = dir.path().join("shudu.1");
    let out = shudu().args(["man", "--out"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("not a directory"), "{err}");
}
