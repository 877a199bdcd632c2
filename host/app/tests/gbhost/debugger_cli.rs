//! The debugger through the REPL of the real binary: a ROM with its RGBDS `.sym` file beside
//! it; breakpoints by symbol and on writes (stopping by the writing instruction, named),
//! `si`, `next`, `finish`, `disasm` with the symbols, `bt`, `info break`, and `step` stopping
//! at a breakpoint.

use gb_core::asm::RomBuilder;
use std::io::Write;
use std::process::{Command, Stdio};

fn repl(dir: &std::path::Path, rom: &std::path::Path, input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gbhost"))
        .env("GBHOST_STATE_KEY", crate::common::state_key())
        .env("GBHOST_CONFIG", dir.join("config.toml"))
        .env("GBHOST_ROM_DATA", dir.join("rom-data"))
        .args([
            "run",
            rom.to_str().unwrap(),
            "--repl",
            "--no-window",
            "--paused",
            "--mute",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gbhost");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

#[test]
fn breakpoints_steps_and_listings_with_symbols() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("debugger");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let asm = RomBuilder::new()
        .title("DEBUG")
        .program(
            r#"
        Start:
            xor a
            ld [$C000], a
        Main:
            call Count
            ld [$C001], a
            jr Main
            org $0400
        Count:
            ld a, [$C000]
            inc a
            ld [$C000], a
            ret
            "#,
        )
        .build_with_symbols()
        .unwrap();
    let rom = dir.join("debug.gb");
    std::fs::write(&rom, &asm.bytes).unwrap();
    let mut sym = String::from("; RGBDS symbols\n");
    for name in ["Start", "Main", "Count"] {
        sym.push_str(&format!("00:{:04X} {name}\n", asm.address(name).unwrap()));
    }
    sym.push_str("00:C000 wCounter\n");
    std::fs::write(dir.join("debug.sym"), sym).unwrap();
    let count = asm.address("Count").unwrap();
    let main = asm.address("Main").unwrap();
    let out = repl(
        &dir,
        &rom,
        &format!(
            "break Count\nstep 5\nregs\nsi\nsi\nnext\nfinish\ndisasm Count 4\nbt\ndelete 1\nwatch w wCounter if value == 100\ninfo break\nstep 200\ndelete all\ntrace {} 2\nquit\n",
            dir.join("trace.log").display()
        ),
    );
    assert!(
        out.contains(&format!("breakpoint #1 x {count:04X}")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "stopped: #1 execute {count:04X} (bank 0); at {count:04X} Count: ld a, [wCounter]"
        )),
        "{out}"
    );
    // si: into Count, then the write.
    assert!(
        out.contains(&format!("at {:04X} Count+3: inc a", count + 3)),
        "{out}"
    );
    assert!(
        out.contains(&format!("at {:04X} Count+4: ld [wCounter], a", count + 4)),
        "{out}"
    );
    // next over a non-call is si; finish returns to Main+3.
    assert!(
        out.contains(&format!("at {:04X} Count+7: ret", count + 7)),
        "{out}"
    );
    assert!(
        out.contains(&format!("at {:04X} Main+3: ld [$C001], a", main + 3)),
        "{out}"
    );
    // The listing names its labels and targets.
    assert!(out.contains("Count:\n"), "{out}");
    assert!(
        out.contains(&format!("{count:04X}  FA 00 C0  ld a, [wCounter]")),
        "{out}"
    );
    // The write breakpoint with its condition, listed, then hit by `step` (which stops there).
    assert!(out.contains("#2 w C000 if value == 100, 0 hit(s)"), "{out}");
    assert!(
        out.contains(&format!(
            "stopped: #2 write of 64 to C000 (bank -) by {:04X} Count+4: ld [wCounter], a",
            count + 4
        )),
        "{out}"
    );
    // Two frames traced, one line per instruction, in Gameboy Doctor's format.
    assert!(
        out.contains("traced ") && out.contains("of 2 frame(s)"),
        "{out}"
    );
    let trace = std::fs::read_to_string(dir.join("trace.log")).unwrap();
    let first = trace.lines().next().unwrap();
    assert!(
        first.starts_with("A:") && first.contains(" SP:") && first.contains(" PCMEM:"),
        "{first}"
    );
    // The frame under way (stopped at the breakpoint) counts as one.
    assert!(trace.lines().count() > 5_000, "{}", trace.lines().count());
}

/// `headless --script` gives scripts the `.sym` beside the ROM too (`emu.symbol`).
#[test]
fn headless_scripts_read_the_roms_symbols() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("debugger-headless");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rom = dir.join("sym.gb");
    std::fs::write(&rom, gb_core::asm::rom("Main:\n jr Main\n").unwrap()).unwrap();
    std::fs::write(dir.join("sym.sym"), "00:0150 Main\n00:C0A0 wPlayerHP\n").unwrap();
    let script = dir.join("s.lua");
    std::fs::write(
        &script,
        "print(emu.symbol('wPlayerHP'), emu.symbol('Main'), emu.symbol('nope'))\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gbhost"))
        .env("GBHOST_STATE_KEY", crate::common::state_key())
        .args([
            "headless",
            rom.to_str().unwrap(),
            "--frames",
            "2",
            "--script",
            script.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // Lua keeps only the first value of a call that is not the last argument.
    assert!(
        text.contains("log: 49312\t336\tnil"),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
