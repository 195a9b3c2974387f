//! Every `dice` command line shown in README.md, docs/, the crates' README.md files and the
//! commands' `--help` examples, run through bash as a reader would paste it: it must do what
//! the page says. A command whose shown output begins with `error:` must be refused (exit 2);
//! any other must succeed (exit 0) and, where its output cannot vary (a seed is given, or
//! exact odds are asked), print what the page shows. A command that needs a cargo feature
//! says so in a trailing comment (`# needs the png feature`) and runs only where the feature
//! is built. Every `--help` page must also speak in the game's terms only: no rulebook line
//! numbers, ruling ids or paths of the project's rulebook copies.
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
/// `cargo run --release -p dice-cli -- …` is read as `dice …` (see [`as_dice_command`]).
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
            if let Some(command) = as_dice_command(cmd) {
                current = Some(Shown {
                    page: name.clone(),
                    line: i + 1,
                    command,
                    output: Vec::new(),
                });
            }
        } else if let Some(cmd) = (kind == "sh").then(|| as_dice_command(trimmed)).flatten() {
            out.push(Shown {
                page: name.clone(),
                line: i + 1,
                command: cmd,
                output: Vec::new(),
            });
        } else if let Some(c) = current.as_mut() {
            c.output.push(line.to_owned());
        }
    }
    out
}

/// A shown line as a `dice` command: `dice …` itself, or README's
/// `cargo run --release -p dice-cli -- …` (the same command, run from the clone), with any
/// trailing comment but a feature note (`# needs the png feature`) dropped.
fn as_dice_command(line: &str) -> Option<String> {
    let (cmd, comment) = match comment_at(line) {
        Some(at) => (line[..at].trim(), Some(line[at + 1..].trim())),
        None => (line.trim(), None),
    };
    let args = cmd
        .strip_prefix("dice ")
        .or_else(|| cmd.strip_prefix("cargo run --release -p dice-cli -- "))
        .or_else(|| cmd.strip_prefix("cargo run -p dice-cli -- "))?;
    let mut out = format!("dice {args}");
    if let Some(note) = comment.filter(|c| c.starts_with("needs ")) {
        out.push_str(" # ");
        out.push_str(note);
    }
    Some(out)
}

/// Where a shell comment starts in a line: the first `#` after a blank and outside quotes
/// (`dice roll '1d20+5 # attack'` has none).
fn comment_at(line: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return Some(i),
            None => {}
        }
        previous = c;
    }
    None
}

/// The inline code spans (`` `dice …` ``) of a page's prose, outside fenced blocks, that are
/// whole commands: a span holding a placeholder (an upper-case word such as `EXPR`, `N` or
/// `I/N`, an ellipsis, or a `|` of alternatives) is a pattern, and a span of two words
/// (`dice merge`) names a subcommand; both are left out. A span may run over a line break,
/// as Markdown allows.
fn inline_in(page: &Path) -> Vec<Shown> {
    let text = std::fs::read_to_string(page).expect("the page reads");
    let name = page
        .strip_prefix(root())
        .unwrap_or(page)
        .display()
        .to_string();
    let mut out = Vec::new();
    let mut in_fence = false;
    // The current paragraph, its lines joined by spaces, and where each line starts in it.
    let mut para = String::new();
    let mut starts: Vec<(usize, usize)> = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let fence = line.trim_start().starts_with("```");
        if fence {
            in_fence = !in_fence;
        }
        let ends = fence || in_fence || line.trim().is_empty();
        if !ends {
            if !para.is_empty() {
                para.push(' ');
            }
            starts.push((para.len(), i + 1));
            para.push_str(line.trim());
        }
        if (ends || i + 1 == lines.len()) && !para.is_empty() {
            for (at, span) in code_spans(&para) {
                let line = starts
                    .iter()
                    .take_while(|(start, _)| *start <= at)
                    .last()
                    .map_or(1, |(_, l)| *l);
                if span.starts_with("dice ") && !is_pattern(span) {
                    out.push(Shown {
                        page: name.clone(),
                        line,
                        command: span.to_owned(),
                        output: Vec::new(),
                    });
                }
            }
            para.clear();
            starts.clear();
        }
    }
    out
}

/// The single-backtick code spans of a paragraph, with their byte offsets.
fn code_spans(para: &str) -> Vec<(usize, &str)> {
    let mut spans = Vec::new();
    let mut rest = para;
    let mut offset = 0;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        spans.push((offset + open + 1, &after[..close]));
        let used = open + 1 + close + 1;
        offset += used;
        rest = &rest[used..];
    }
    spans
}

/// Whether an inline `dice …` span is a pattern or a subcommand's name rather than a command.
fn is_pattern(span: &str) -> bool {
    span.split_whitespace().count() < 3
        || span.contains('…')
        || span.contains('|')
        || span.split_whitespace().any(|word| {
            word.chars().any(|c| c.is_ascii_uppercase())
                && word
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || matches!(c, '/' | '_' | '=' | '[' | ']'))
        })
}

/// The cargo features a command's trailing note (`# needs the png feature`) asks for, and
/// whether this build of `dice` has each.
fn features_needed(command: &str) -> Vec<(String, bool)> {
    let Some((_, note)) = command.split_once(" # needs ") else {
        return Vec::new();
    };
    note.split([',', ' '])
        .filter(|w| !w.is_empty() && !matches!(*w, "the" | "and" | "feature" | "features"))
        .map(|feature| {
            let built = match feature {
                "png" => cfg!(feature = "png"),
                // An unknown feature is never built: the page names a feature dice-cli lacks.
                _ => false,
            };
            (feature.to_owned(), built)
        })
        .collect()
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

/// Held while a command runs in the repository's root.
static IN_ROOT: std::sync::Mutex<()> = std::sync::Mutex::new(());

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
    // One command at a time in the root: the tests run in parallel, and a file one command
    // writes must not be taken for another's.
    let _alone = IN_ROOT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
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
        let path = root().join(f);
        let _ = if path.is_dir() {
            std::fs::remove_dir_all(path)
        } else {
            std::fs::remove_file(path)
        };
    }
    // What the command asks to write (removed above all the same): a chart (`--plot FILE`),
    // an output redirected into a named file (`> FILE`, a separate word: `10d10>=8` unquoted
    // still counts as a stray file), a folder made for it (`mkdir -p DIR`, `--dir DIR`).
    let words: Vec<&str> = command.split_whitespace().collect();
    let meant: Vec<&str> = words
        .windows(2)
        .filter(|w| matches!(w[0], "--plot" | ">" | "--dir" | "-p"))
        .map(|w| w[1])
        .collect();
    files.retain(|f| !meant.contains(&f.as_str()));
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text, files)
}

/// A help page (`dice … --help` or `-h`, commands built here, never pasted): it writes
/// nothing, so it runs beside other commands, not one at a time in the root. Returns the
/// exit code and stdout with stderr.
fn run_help(command: &str) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dice"))
        .args(command.split_whitespace().skip(1))
        .current_dir(root())
        .env_remove("DICE_PROGRESS")
        .output()
        .expect("dice runs");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
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

/// The pages whose fenced blocks are read: README.md, docs/*.md and the crates' README.md.
fn pages() -> Vec<PathBuf> {
    let mut v = vec![root().join("README.md")];
    v.extend(crate_readmes());
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

/// The crates' README.md files (the dice command's and the five games' among them).
fn crate_readmes() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .flatten()
        .map(|e| e.path().join("README.md"))
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

/// Every command shown: the fenced blocks of all pages, and the inline `dice …` commands of
/// README.md and the crates' README.md files (docs/ pages write their inline spans as
/// patterns and fragments; their commands are in fenced blocks).
fn all_shown() -> Vec<Shown> {
    let mut v: Vec<Shown> = pages().iter().flat_map(|p| shown_in(p)).collect();
    let mut readmes = vec![root().join("README.md")];
    readmes.extend(crate_readmes());
    v.extend(readmes.iter().flat_map(|p| inline_in(p)));
    v
}

#[test]
fn every_documented_command_does_what_its_page_says() {
    let mut failures = Vec::new();
    let mut count = 0;
    let mut skipped = Vec::new();
    for shown in all_shown() {
        let at = format!("{}:{}: `{}`", shown.page, shown.line, shown.command);
        let needs = features_needed(&shown.command);
        if let Some((unknown, _)) = needs.iter().find(|(f, _)| f != "png") {
            failures.push(format!(
                "{at} needs the feature `{unknown}`, which dice-cli lacks"
            ));
            continue;
        }
        let plots_png = shown
            .command
            .split_whitespace()
            .collect::<Vec<_>>()
            .windows(2)
            .any(|w| w[0] == "--plot" && w[1].ends_with(".png"));
        if plots_png && needs.is_empty() {
            failures.push(format!(
                    "{at} writes a PNG, which needs the png feature: end the line with `# needs the png feature`"
                ));
            continue;
        }
        if needs.iter().any(|(_, built)| !built) {
            skipped.push(at);
            continue;
        }
        count += 1;
        let (code, text, files) = run(&shown.command);
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
    if !skipped.is_empty() {
        eprintln!(
            "skipped {} documented commands whose feature this build lacks:\n{}",
            skipped.len(),
            skipped.join("\n")
        );
    }
    assert!(count > 20, "only {count} documented commands found");
    assert!(
        failures.is_empty(),
        "{} of {count} documented commands do not do what their page says:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every command and subcommand of `dice` with its `--help` page, found by walking the
/// `Commands:` lists from `dice --help` down, so a new subcommand is covered without a
/// change here.
fn help_pages() -> Vec<(String, String)> {
    let mut pending = vec!["dice".to_owned()];
    let mut seen = std::collections::BTreeSet::new();
    let mut pages = Vec::new();
    while let Some(cmd) = pending.pop() {
        if !seen.insert(cmd.clone()) {
            continue;
        }
        let (code, help) = run_help(&format!("{cmd} --help"));
        assert_eq!(code, Some(0), "`{cmd} --help` failed:\n{help}");
        for line in section(&help, "Commands:") {
            let word = line.split_whitespace().next().unwrap_or("");
            if !word.is_empty() && word != "help" {
                pending.push(format!("{cmd} {word}"));
            }
        }
        pages.push((cmd, help));
    }
    pages
}

/// The indented lines under a help page's heading (`Commands:`, `Examples:`), up to the
/// first blank or unindented line.
fn section<'a>(help: &'a str, heading: &str) -> Vec<&'a str> {
    help.lines()
        .skip_while(|line| !line.starts_with(heading))
        .skip(1)
        .take_while(|line| !line.trim().is_empty() && line.starts_with(' '))
        .collect()
}

/// The `Examples:` of every command's `--help`, run the same way.
#[test]
fn every_help_example_runs_as_pasted() {
    let mut failures = Vec::new();
    let mut examples = 0;
    for (cmd, help) in help_pages() {
        for line in section(&help, "Examples:") {
            let trimmed = line.trim();
            // `dice …`, or a line that prepares for it (`mkdir -p man1 && dice …`).
            let runs_dice = trimmed.starts_with("dice ")
                || trimmed.contains("&& dice ")
                || trimmed.contains("| dice ");
            if runs_dice {
                examples += 1;
                let (code, text, files) = run(trimmed);
                if code != Some(0) || !files.is_empty() {
                    failures.push(format!(
                        "`{cmd} --help` example `{trimmed}` exited {code:?}, wrote {files:?}:\n{text}"
                    ));
                }
            }
        }
    }
    assert!(examples > 5, "only {examples} help examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Whether `c` is part of a word, as a regular expression's `\w` reads it.
fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The rulebook references in a help text: rulebook lines (`L87`, as `\bL\d+`), ruling and
/// example ids of the digests (`SW-A9`, `PC-R3`, as `\b[A-Z]{2}-[A-Z]\d+\b`; and the bare
/// `A7`, `E3` of Robots & Rapiers, as `\b[AE]\d+\b`, which covers `(A8)`), and the paths of
/// the project's rulebook copies (`seeds/`, `rules/`). Matched by hand: the tests have no
/// regular-expression crate.
fn rulebook_references(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let digits_from = |i: usize| chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let ends_word = |i: usize| chars.get(i).is_none_or(|&c| !word_char(c));
    let mut found = Vec::new();
    for i in 0..chars.len() {
        if i > 0 && word_char(chars[i - 1]) {
            continue;
        }
        let c = chars[i];
        // `L87`, `L87–89`
        if c == 'L' && i + 1 < chars.len() && digits_from(i + 1) > 0 {
            found.push(chars[i..i + 1 + digits_from(i + 1)].iter().collect());
            continue;
        }
        // `A7`, `E3`, `(A8)` (the `A9` of `SW-A9` is matched below)
        if matches!(c, 'A' | 'E') && i + 1 < chars.len() && (i == 0 || chars[i - 1] != '-') {
            let n = digits_from(i + 1);
            if n > 0 && ends_word(i + 1 + n) {
                found.push(chars[i..i + 1 + n].iter().collect());
                continue;
            }
        }
        // `SW-A9`, `PC-A10`
        if i + 4 < chars.len()
            && chars[i].is_ascii_uppercase()
            && chars[i + 1].is_ascii_uppercase()
            && chars[i + 2] == '-'
            && chars[i + 3].is_ascii_uppercase()
        {
            let n = digits_from(i + 4);
            if n > 0 && ends_word(i + 4 + n) {
                found.push(chars[i..i + 4 + n].iter().collect());
            }
        }
    }
    for path in ["seeds/", "rules/"] {
        if text.contains(path) {
            found.push(path.to_owned());
        }
    }
    found
}

#[test]
fn rulebook_references_are_recognised() {
    let cited = "the skill reduced (L87–89; SW-A9), at least 0 (PC-A10), automatic (A7; E12) \
        as `seeds/swimclass.txt` and `rules/small-systems.md` say";
    assert_eq!(
        rulebook_references(cited),
        ["L87", "SW-A9", "PC-A10", "A7", "E12", "seeds/", "rules/"]
    );
    // Dice, option names and words that only look alike are not references.
    let plain = "4d6kh3, 10d10>=8, --rule fluke_equal_is_consequence=false, LEVEL, A1B, \
        TASK-A, the Large weapon, XL2, Sample Rounds, 3d10, AE1x";
    assert_eq!(rulebook_references(plain), Vec::<String>::new());
}

/// Every `--help` (and short `-h`) page speaks in the game's terms only: a reader of the
/// help has no rulebook line numbers, ruling ids or rulebook copies to follow (those stay
/// in the rustdoc and docs/, which name the rulebook).
#[test]
fn no_help_page_cites_the_rulebook() {
    let pages = help_pages();
    let mut failures = Vec::new();
    for (cmd, long) in &pages {
        let (_, short) = run_help(&format!("{cmd} -h"));
        for (flag, text) in [("--help", long), ("-h", &short)] {
            let found = rulebook_references(text);
            if !found.is_empty() {
                failures.push(format!("`{cmd} {flag}` cites {found:?}"));
            }
        }
    }
    assert!(pages.len() > 20, "only {} commands found", pages.len());
    assert!(
        failures.is_empty(),
        "help texts must not cite the rulebook:\n{}",
        failures.join("\n")
    );
}

#[test]
fn commands_are_read_from_pages_as_a_reader_would() {
    // README's form of a command, and a feature note kept for the skip.
    assert_eq!(
        as_dice_command("cargo run --release -p dice-cli -- odds 4d6kh3    # a D&D score"),
        Some("dice odds 4d6kh3".to_owned())
    );
    assert_eq!(
        as_dice_command("dice odds 3d6 --plot a.png  # needs the png feature"),
        Some("dice odds 3d6 --plot a.png # needs the png feature".to_owned())
    );
    assert_eq!(as_dice_command("cargo test --workspace"), None);
    assert_eq!(
        as_dice_command("dice roll --dialect d20 '1d20+5 # attack' --seed 1"),
        Some("dice roll --dialect d20 '1d20+5 # attack' --seed 1".to_owned())
    );
    assert_eq!(
        features_needed("dice odds 3d6 --plot a.png # needs the png feature"),
        [("png".to_owned(), cfg!(feature = "png"))]
    );
    // Patterns and names of subcommands are not run; whole commands are.
    for pattern in [
        "dice roll EXPR",
        "dice odds EXPR [--monte-carlo [--trials N]]",
        "dice swimclass task|attack …",
        "dice merge",
    ] {
        assert!(is_pattern(pattern), "{pattern}");
    }
    for command in ["dice odds '2d6+2 vs 9'", "dice odds 4d6kh3 3d6 2d6+6"] {
        assert!(!is_pattern(command), "{command}");
    }
    // A span over a line break is one command.
    assert_eq!(
        code_spans("try `dice odds 3d6` and `dice swimclass task --rank 1..6 --difficulty 4`"),
        [
            (5, "dice odds 3d6"),
            (25, "dice swimclass task --rank 1..6 --difficulty 4")
        ]
    );
}
