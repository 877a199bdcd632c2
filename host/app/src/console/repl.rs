//! The terminal REPL (`gbhost run ROM --repl`): rustyline on its own thread, with history and
//! tab completion of meta-commands (and file paths after `load`). Each line is evaluated on
//! the emulation thread (`Emu::apply_line`) and its reply printed; console lines
//! (script prints, watch hits) arrive on a subscription and are printed above the prompt.
//!
//! End of input: on a terminal (Ctrl-D) or with `quit`, gbhost quits; on piped input only the
//! REPL ends (so `printf 'peek c000\n' | gbhost run … --repl` works as a driver).

use crate::console::command::COMMANDS;
use crate::emu::Cmd;
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, ExternalPrinter, Helper};
use std::io::IsTerminal;
use std::sync::mpsc::{self, Sender};
use std::time::Duration;

/// Completion: commands at the start of a line, file names after `load`.
struct ReplHelper {
    files: FilenameCompleter,
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        if !before.contains(' ') {
            let c = COMMANDS
                .iter()
                .filter(|(name, _)| name.starts_with(before))
                .map(|(name, _)| Pair {
                    display: (*name).to_owned(),
                    replacement: format!("{name} "),
                })
                .collect();
            return Ok((0, c));
        }
        if before.starts_with("load ") {
            return self.files.complete(line, pos, ctx);
        }
        if before.starts_with("state ") && before.matches(' ').count() == 1 {
            let word = &before[6..];
            let c = ["save ", "load "]
                .iter()
                .filter(|w| w.starts_with(word))
                .map(|w| Pair {
                    display: w.trim().to_owned(),
                    replacement: (*w).to_owned(),
                })
                .collect();
            return Ok((6, c));
        }
        Ok((pos, Vec::new()))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}
impl Highlighter for ReplHelper {}
impl Validator for ReplHelper {}
impl Helper for ReplHelper {}

/// Terminal settings saved before rustyline switches to raw mode, restored at exit (closing
/// the window while rustyline waits would otherwise leave the terminal raw).
pub struct TermGuard(Option<String>);

impl TermGuard {
    /// Save the settings of the controlling terminal (`stty -g`), if stdin is one.
    pub fn save() -> TermGuard {
        if !std::io::stdin().is_terminal() {
            return TermGuard(None);
        }
        let out = std::process::Command::new("stty")
            .arg("-g")
            .stdin(std::process::Stdio::inherit())
            .output();
        TermGuard(
            out.ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned()),
        )
    }
}

impl Drop for TermGuard {
    fn drop(&mut self) {
        if let Some(s) = &self.0 {
            let _ = std::process::Command::new("stty")
                .arg(s)
                .stdin(std::process::Stdio::inherit())
                .status();
        }
    }
}

/// Run the REPL on the current thread until `quit` or end of input. Returns true when gbhost
/// should quit.
pub fn run(emu: Sender<Cmd>) -> bool {
    let terminal = std::io::stdin().is_terminal();
    let mut editor =
        match rustyline::Editor::<ReplHelper, rustyline::history::DefaultHistory>::new() {
            Ok(e) => e,
            Err(e) => {
                eprintln!("gbhost: the REPL cannot start: {e}");
                return false;
            }
        };
    editor.set_helper(Some(ReplHelper {
        files: FilenameCompleter::new(),
    }));
    // Console lines printed above the prompt (or plainly when there is no terminal).
    let (lines_tx, lines_rx) = mpsc::channel::<String>();
    let _ = emu.send(Cmd::Subscribe(lines_tx));
    let printer = if terminal {
        editor.create_external_printer().ok()
    } else {
        None
    };
    let _ = std::thread::Builder::new()
        .name("repl-printer".into())
        .spawn(move || {
            let mut printer = printer;
            for line in lines_rx {
                match &mut printer {
                    Some(p) => {
                        let _ = p.print(line);
                    }
                    None => println!("{line}"),
                }
            }
        });
    println!("gbhost REPL: 'help' lists commands; anything else is Lua. Tab completes.");
    loop {
        match editor.readline("gbhost> ") {
            Ok(line) => {
                let line = line.trim().to_owned();
                if line.is_empty() {
                    continue;
                }
                let _ = editor.add_history_entry(line.as_str());
                if matches!(line.as_str(), "quit" | "exit" | "q") {
                    let _ = emu.send(Cmd::Quit);
                    return true;
                }
                let (tx, rx) = mpsc::channel();
                if emu.send(Cmd::Line(line, Some(tx))).is_err() {
                    return true;
                }
                match rx.recv_timeout(Duration::from_secs(60)) {
                    Ok(out) if !out.is_empty() => println!("{out}"),
                    Ok(_) => {}
                    Err(_) => {
                        println!("(the emulator did not answer)");
                        return true;
                    }
                }
            }
            Err(ReadlineError::Interrupted) => {}
            Err(ReadlineError::Eof) => {
                if terminal {
                    let _ = emu.send(Cmd::Quit);
                }
                return terminal;
            }
            Err(e) => {
                eprintln!("gbhost: REPL: {e}");
                return false;
            }
        }
    }
}
