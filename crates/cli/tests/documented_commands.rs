//! Every `dice` command line shown in README.md, docs/ and the commands' `--help` examples,
//! run through bash as a reader would paste it: it must do what the page says. A command
//! whose shown output begins with `error:` must be refused (exit 2); any other must succeed
//! (exit 0) and, where its output cannot vary (a seed is given, or exact odds are asked),
//! print what the page shows.
//!
//! A pasted line goes through the shell's quoting, globbing and redirection, which is what
//! this checks beyond the other tests: an unquoted `10d10>=8` writes a file named `=8`.
//! Commands run from the repository's root, where the pages' paths (scene files) start.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A command shown in a page, with the output shown under it (if any).
#[derive(Debug)]
struct Shown {
    page: String,
    line: usize,
    command: String,
    output: Vec<String>,
}

/// `$ dice …` lines of the fenced blocks of a page, with the lines after each until the
/// next `$` line or the end of the block; and `dice …` lines of ```sh blocks (no output).
fn shown_in(page: &Path) -> Vec<Shown> {
    let text = std::fs::read_to_string(page).expect("the page reads");
    let name = page
        .strip_prefix(root())
        .unwrap_or(page)
        .display()
        .to_string();
    let mut out: Vec<Shown> = Vec::new();
    let mut fence: Option<String> = None;
    let mut current: Option<Shown> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("```") {
            match fence {
                None => fence = Some(rest.trim().to_owned()),
                Some(_) => {
                    fence = None;
                    out.extend(current.take());
                }
            }
            continue;
        }
        let Some(kind) = &fence else { continue };
        if let Some(cmd) = trimmed.strip_prefix("$ ") {
            out.extend(current.take());
            if cmd.starts_with("dice ") {
                current = Some(Shown {
                    page: name.clone(),
                    line: i + 1,
                    command: cmd.to_owned(),
                    output: Vec::new(),
                });
            }
        } else if kind == "sh" && trimmed.starts_with("dice ") {
            out.push(Shown {
                page: name.clone(),
                line: i + 1,
                command: trimmed
                    .split(" #")
                    .next()
                    .unwrap_or(trimmed)
                    .trim()
                    .to_owned(),
                output: Vec::new(),
            });
        } else if let Some(c) = current.as_mut() {
            c.output.push(line.to_owned());
        }
    }
    out
}

/// The names in the repository's root folder.
fn root_listing() -> std::collections::BTreeSet<String> {
    std::fs::read_dir(root())
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Runs `command` through bash from the repository's root (where the pages' paths start),
/// with `dice` being the binary under test; returns the exit code, stdout and stderr, and
/// any file the command left in the root (a mis-quoted `>` writes one).
fn run(command: &str) -> (Option<i32>, String, Vec<String>) {
    let bin = Path::new(env!("CARGO_BIN_EXE_dice"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("the binary's folder").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let before = root_listing();
    let out = Command::new("bash")
        .arg("-c")
        .arg(command)
        .current_dir(root())
        .env("PATH", path)
        .env_remove("DICE_PROGRESS")
        .output()
        .expect("bash runs");
    let mut files: Vec<String> = root_listing().difference(&before).cloned().collect();
    for f in &files {
        let _ = std::fs::remove_file(root().join(f));
    }
    // A chart asked for with `--plot FILE` is meant to be written (and is removed above).
    let plotted: Vec<&str> = command
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "--plot")
        .map(|w| w[1])
        .collect();
    files.retain(|f| !plotted.contains(&f.as_str()));
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text, files)
}

/// Whether a command's output is the same on every run.
fn deterministic(command: &str) -> bool {
    let seeded = command.contains("--seed");
    let unseeded_monte_carlo = command.contains("--monte-carlo") && !seeded;
    let no_dice = command.contains("--odds")
        || command.contains("--help")
        || command.starts_with("dice odds");
    (seeded || no_dice) && !unseeded_monte_carlo
}

fn pages() -> Vec<PathBuf> {
    let mut v = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    v.extend(docs);
    v
}

#[test]
fn every_documented_command_does_what_its_page_says() {
    let mut failures = Vec::new();
    let mut count = 0;
    for page in pages() {
        for shown in shown_in(&page) {
            count += 1;
            let (code, text, files) = run(&shown.command);
            let at = format!("{}:{}: `{}`", shown.page, shown.line, shown.command);
            if !files.is_empty() {
                failures.push(format!("{at} wrote files {files:?} (unquoted > or <?)"));
                continue;
            }
            // A page marks a refusal `[exit N]` after the output, or shows `error:` first.
            let marked = shown.output.iter().find_map(|l| {
                l.trim()
                    .strip_prefix("[exit ")
                    .and_then(|r| r.strip_suffix(']'))
                    .and_then(|n| n.parse::<i32>().ok())
            });
            let expects_error = shown
                .output
                .iter()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| l.trim_start().starts_with("error:"));
            let want = Some(marked.unwrap_or(if expects_error { 2 } else { 0 }));
            if code != want {
                failures.push(format!("{at} exited {code:?}, not {want:?}:\n{text}"));
                continue;
            }
            if text.trim().is_empty() {
                failures.push(format!("{at} printed nothing"));
                continue;
            }
            if !shown.output.is_empty() && deterministic(&shown.command) {
                let got: Vec<&str> = text.lines().map(str::trim_end).collect();
                let shown_lines: Vec<&str> = shown.output.iter().map(|l| l.trim_end()).collect();
                // Every shown line appears, in order (a page may elide with `…`).
                let mut at_line = 0;
                for want_line in shown_lines
                    .iter()
                    .filter(|l| !l.is_empty() && !l.contains('…') && !l.starts_with("[exit "))
                {
                    match got[at_line..].iter().position(|g| g == want_line) {
                        Some(p) => at_line += p + 1,
                        None => {
                            failures.push(format!(
                                "{at} does not print the line shown:\n  {want_line}\nit prints:\n{text}"
                            ));
                            break;
                        }
                    }
                }
            }
        }
    }
    assert!(count > 20, "only {count} documented commands found");
    assert!(
        failures.is_empty(),
        "{} of {count} documented commands do not do what their page says:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The `Examples:` of every command's `--help`, run the same way.
#[test]
fn every_help_example_runs_as_pasted() {
    let (_, top, _) = run("dice --help");
    let mut commands = vec!["dice".to_owned()];
    for line in top.lines() {
        let word = line.split_whitespace().next().unwrap_or("");
        if line.starts_with("  ") && !word.is_empty() && word != "help" && !word.starts_with('-') {
            commands.push(format!("dice {word}"));
        }
    }
    let mut failures = Vec::new();
    let mut examples = 0;
    let mut seen = std::collections::BTreeSet::new();
    while let Some(cmd) = commands.pop() {
        if !seen.insert(cmd.clone()) {
            continue;
        }
        let (_, help, _) = run(&format!("{cmd} --help"));
        let mut in_examples = false;
        let mut in_commands = false;
        for line in help.lines() {
            if line.starts_with("Examples:") {
                in_examples = true;
                continue;
            }
            if line.starts_with("Commands:") {
                in_commands = true;
                continue;
            }
            if line.trim().is_empty() || !line.starts_with(' ') {
                in_examples = false;
                in_commands = false;
                continue;
            }
            let trimmed = line.trim();
            if in_examples && trimmed.starts_with("dice ") {
                examples += 1;
                let (code, text, files) = run(trimmed);
                if code != Some(0) || !files.is_empty() {
                    failures.push(format!(
                        "`{cmd} --help` example `{trimmed}` exited {code:?}, wrote {files:?}:\n{text}"
                    ));
                }
            }
            if in_commands {
                let word = trimmed.split_whitespace().next().unwrap_or("");
                if !word.is_empty() && word != "help" {
                    commands.push(format!("{cmd} {word}"));
                }
            }
        }
    }
    assert!(examples > 5, "only {examples} help examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
