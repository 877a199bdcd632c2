//! `gbhost headless`: run a ROM with no window and no audio device, then print what was asked
//! for.
//!
//! Output contract (one item per line, in this order): `frames: N`; with `--print-serial`,
//! `serial: TEXT` (non-printable bytes as `\xNN`); with `--print-regs`,
//! `regs: A=01 F=B0 B=00 C=13 D=00 E=D8 H=01 L=4D SP=FFFE PC=0100`; for each `--peek ADDR`,
//! `peek FF82=01`. `--screenshot FILE.png` writes the final frame; `--wav FILE.wav` the run's
//! audio (48 kHz stereo 16-bit PCM, resampled and high-passed as the app plays it; written to a
//! temporary file and renamed, so it appears whole or not at all). Exit 0 when the run completed,
//! 1 when a script failed (the run ends after that frame and prints its output; with
//! `--keep-going` every frame runs, and the exit is still 1) or the sync test found a mismatch,
//! 2 on a bad ROM or argument or a screenshot or WAV that cannot be written. `--printer
//! FILE.png` attaches the Game Boy Printer and writes what it printed (`printed: N rows`).

use crate::audio::WavOut;
use anyhow::Result;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `gbhost headless`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ROM file to run.
    rom: PathBuf,
    /// Frames to run.
    #[arg(long, default_value_t = 600)]
    frames: u64,
    /// Stop as soon as the CPU executes LD B,B (opcode 0x40), the test ROMs' breakpoint.
    #[arg(long)]
    stop_on_ld_b_b: bool,
    /// Print the bytes sent on the serial port.
    #[arg(long)]
    print_serial: bool,
    /// Print the CPU registers at the end.
    #[arg(long)]
    print_regs: bool,
    /// Print the byte at this address (hex, e.g. FF82 or 0xFF82) at the end; repeatable.
    #[arg(long, value_name = "ADDR", value_parser = parse_addr)]
    peek: Vec<u16>,
    /// Write the final frame as a PNG in the reference palette. When the run stopped on LD B,B
    /// mid-frame, that frame is finished first (in a copy: the other output is unaffected).
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    /// Write the run's audio as a 48 kHz stereo 16-bit WAV file.
    #[arg(long, value_name = "FILE.wav")]
    wav: Option<PathBuf>,
    /// Run this DMG boot ROM (256 bytes) instead of starting in the post-boot state.
    #[arg(long, value_name = "FILE")]
    boot_rom: Option<PathBuf>,
    #[command(flatten)]
    power: crate::game::rom::PowerArgs,
    #[command(flatten)]
    patch: crate::game::rom_patches::PatchArgs,
    /// Load this Lua script before the first frame (repeatable); its `console.log`/`print`
    /// lines are printed as `log: TEXT`.
    #[arg(long, value_name = "FILE.lua")]
    script: Vec<PathBuf>,
    /// Load this Lua script on player 2's Game Boy (with --link; repeatable, after the
    /// --script ones): its memory, joypad and `emu.player()` are player 2's, and with
    /// --overlay it draws on player 2's screen.
    #[arg(long, value_name = "FILE.lua", requires = "link")]
    script2: Vec<PathBuf>,
    /// After every frame, roll back K frames, replay them and compare core and scripts byte
    /// for byte with the record; prints `sync-test: FRAMES frames, MISMATCHES mismatches` and
    /// exits 1 on any mismatch.
    #[arg(long, value_name = "K")]
    sync_test: Option<u64>,
    /// With --screenshot and scripts: draw the scripts' overlays over the frame.
    #[arg(long, requires = "screenshot")]
    overlay: bool,
    /// The API the scripts are written for: native, bizhawk, vba or mgba (default: guessed from each
    /// script's source).
    #[arg(long, value_name = "API", value_parser = parse_api)]
    api: Option<gb_session::Flavor>,
    /// Start from this state file (saved by the app or `gbhost state save` for this ROM): its
    /// machine, model and scripts; `--frames` more frames run from there, and `frames:` prints
    /// the frame reached.
    #[arg(
        long,
        alias = "state",
        value_name = "FILE.gbs",
        conflicts_with = "boot_rom"
    )]
    from_state: Option<PathBuf>,
    /// Save the session's state to this file after the last frame (scripts included: their
    /// portable images, sealed with your state key).
    #[arg(long, value_name = "FILE.gbs")]
    save_state: Option<PathBuf>,
    /// Run every frame even after a script failed (the exit status is still 1); without it the
    /// run ends after the frame where a script failed.
    #[arg(long)]
    keep_going: bool,
    /// Write one line per frame to this file: the frame, a hash of the core's state, of each
    /// script's draw list and of each script VM's canonical image, and the console lines
    /// (`frame N core=… draw=… vm=…`, then `log: …` lines): two runs that agree agree here.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Run a second Game Boy on a link cable with this ROM (the same --model and power-on
    /// options; `auto` chooses for each ROM). Player 2's lines follow player 1's, prefixed
    /// `player 2 `; `--screenshot` shows both screens side by side; `link:` tells whether the
    /// cable is plugged and how many exchanges were not exact (0 expected). With
    /// `--from-state`, the second ROM of a linked pair's state file.
    #[arg(long, value_name = "ROM2", conflicts_with = "stop_on_ld_b_b")]
    link: Option<PathBuf>,
    /// Attach the Game Boy Printer to the serial port and write what it printed to this PNG
    /// (160 pixels wide, the reference greys; `printed: ROWS rows` is printed). Not with
    /// scripts, states, the sync test or --link (their sessions do not hold a printer yet).
    #[arg(long, value_name = "FILE.png", conflicts_with_all = ["script", "script2", "sync_test", "from_state", "save_state", "trace", "link", "overlay"])]
    printer: Option<PathBuf>,
}

fn parse_api(s: &str) -> Result<gb_session::Flavor, String> {
    gb_session::Flavor::parse(s)
        .ok_or_else(|| format!("'{s}' is not an API: native, bizhawk, vba or mgba"))
}

/// Parse a 16-bit hex address, with or without `0x` / `$`.
fn parse_addr(s: &str) -> Result<u16, String> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_prefix('$'))
        .unwrap_or(s);
    u16::from_str_radix(digits, 16).map_err(|_| format!("'{s}' is not a hex address 0000-FFFF"))
}

/// Format serial bytes: printable ASCII as is, everything else as `\xNN`.
pub fn escape_serial(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if (0x20..0x7F).contains(&b) && b != b'\\' {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// Run `gbhost headless`.
pub fn run(args: &Args) -> Result<()> {
    if !args.script.is_empty()
        || args.sync_test.is_some()
        || args.overlay
        || args.from_state.is_some()
        || args.save_state.is_some()
        || args.trace.is_some()
        || args.link.is_some()
    {
        return run_session(args);
    }
    let mut gb = crate::game::rom::load(
        &args.rom,
        args.boot_rom.as_deref(),
        args.power,
        &args.patch.patches,
    )?;
    if args.printer.is_some() {
        gb.attach_printer(true);
    }
    let mut audio = match &args.wav {
        Some(path) => Some(WavOut::create(path)?),
        None => {
            // Nobody listens: skip generating samples (nothing the CPU sees changes).
            gb.set_audio_enabled(false);
            None
        }
    };
    let mut frames = 0;
    let mut mid_frame = false;
    while frames < args.frames {
        if args.stop_on_ld_b_b {
            if gb.run_frame_or_ld_b_b() {
                mid_frame = true;
                break;
            }
        } else {
            gb.run_frame();
        }
        frames += 1;
        if let Some(a) = &mut audio
            && let Err(e) = a.drain(|buf| gb.drain_audio(buf))
        {
            if let Some(a) = audio.take() {
                a.abandon();
            }
            return Err(e);
        }
    }
    if let Some(mut a) = audio {
        if let Err(e) = a.drain(|buf| gb.drain_audio(buf)) {
            a.abandon();
            return Err(e);
        }
        a.finish()?;
    }
    if let Some(path) = &args.screenshot {
        if mid_frame {
            let mut finished = gb.clone();
            finished.run_frame();
            crate::screenshot::write(path, finished.framebuffer())?;
        } else {
            crate::screenshot::write(path, gb.framebuffer())?;
        }
    }
    println!("frames: {frames}");
    print_machine(&gb, args);
    if let (Some(path), Some(printer)) = (&args.printer, gb.printer_mut()) {
        let paper = printer.take_paper();
        crate::screenshot::write_paper(path, &paper)?;
        println!("printed: {} rows", paper.rows());
    }
    Ok(())
}

/// The lines after `frames:`: serial output, registers and peeks, as asked.
fn print_machine(gb: &gb_core::Gb, args: &Args) {
    print_player(gb, args, "");
}

/// [`print_machine`]'s lines for one player, each starting with `prefix`.
fn print_player(gb: &gb_core::Gb, args: &Args, prefix: &str) {
    if args.print_serial {
        println!("{prefix}serial: {}", escape_serial(gb.serial_output()));
    }
    if args.print_regs {
        let r = gb.regs();
        println!(
            "{prefix}regs: A={:02X} F={:02X} B={:02X} C={:02X} D={:02X} E={:02X} H={:02X} L={:02X} SP={:04X} PC={:04X}",
            r.a, r.f, r.b, r.c, r.d, r.e, r.h, r.l, r.sp, r.pc
        );
    }
    for &addr in &args.peek {
        println!("{prefix}peek {addr:04X}={:02X}", gb.peek(addr));
    }
}

/// `headless` with scripts or the sync test: through a session (see [`crate::scripted`]).
fn run_session(args: &Args) -> Result<()> {
    if args.stop_on_ld_b_b {
        anyhow::bail!(
            "--stop-on-ld-b-b cannot be combined with --script, --sync-test or --from-state"
        );
    }
    let session = crate::scripted::run(&crate::scripted::Run {
        rom: &args.rom,
        boot_rom: args.boot_rom.as_deref(),
        power: args.power,
        patches: &args.patch.patches,
        scripts: &args.script,
        scripts2: &args.script2,
        api: args.api,
        frames: args.frames,
        sync_test: args.sync_test,
        wav: args.wav.as_deref(),
        from_state: args.from_state.as_deref(),
        save_state: args.save_state.as_deref(),
        trace: args.trace.as_deref(),
        keep_going: args.keep_going,
        link: args.link.as_deref(),
    })?;
    let gb = session.gb();
    if let Some(path) = &args.screenshot {
        // Each player's screen with the overlays of the scripts on that player.
        let screen = |player: usize, picture| {
            let mut rgb = crate::screenshot::to_rgb(picture);
            if args.overlay {
                for (_, list) in session.draw_lists_of(player) {
                    crate::overlay::render(&mut rgb, list);
                }
            }
            rgb
        };
        let first = screen(0, session.picture());
        match session.machine().player_picture(1) {
            Some(second) => {
                let screens = [first, screen(1, second)];
                crate::screenshot::write_side_by_side(path, &screens)?;
            }
            None => crate::screenshot::write_rgb(path, &first)?,
        }
    }
    println!("frames: {}", session.frame());
    print_machine(gb, args);
    if let Some(pair) = session.machine().pair() {
        print_player(pair.gb(1), args, "player 2 ");
        let inexact = pair.inexact();
        println!(
            "link: {}, {} inexact exchanges",
            if pair.plugged() {
                "plugged"
            } else {
                "unplugged"
            },
            inexact.mispredicted + inexact.late
        );
    }
    if crate::scripted::script_failed(&session) {
        return Err(crate::scripted::ScriptFailed.into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_in_hex_with_any_prefix() {
        assert_eq!(parse_addr("FF82"), Ok(0xFF82));
        assert_eq!(parse_addr("0xff82"), Ok(0xFF82));
        assert_eq!(parse_addr("$c000"), Ok(0xC000));
        assert!(parse_addr("10000").is_err());
        assert!(parse_addr("zz").is_err());
    }

    #[test]
    fn serial_escapes_non_printables() {
        assert_eq!(escape_serial(b"Passed\n"), "Passed\\x0A");
        assert_eq!(escape_serial(b"a\\b\x00"), "a\\x5Cb\\x00");
    }
}
