//! Where the app's battery saves go, through the real binary (`gbhost run ROM --no-window`):
//! a patched game's save is named after its patches and leaves the plain game's alone, the
//! config's `saves_dir` gets every save, and a ROM folder gbhost cannot write sends the save
//! to the data folder, said on stderr. Every ROM and save lives in Cargo's temporary folder.

use gb_core::asm::RomBuilder;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("saves")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A cartridge with battery RAM that writes `$42` at `$A000` and counts frames at `$A010`.
fn battery_rom() -> Vec<u8> {
    RomBuilder::new()
        .title("SAVES")
        .cartridge_type(0x03)
        .ram_size_code(0x02)
        .program(
            r#"
                ld a, $0A
                ld [$0000], a
                ld a, $42
                ld [$A000], a
            .loop:
                ldh a, [$44]
                cp 144
                jr nz, .loop
                ld a, [$A010]
                inc a
                ld [$A010], a
            .wait:
                ldh a, [$44]
                cp 144
                jr z, .wait
                jr .loop
            "#,
        )
        .build()
        .expect("assemble")
}

/// An IPS patch writing `bytes` at `offset`.
fn ips(offset: u32, bytes: &[u8]) -> Vec<u8> {
    let mut p = b"PATCH".to_vec();
    p.extend_from_slice(&offset.to_be_bytes()[1..]);
    p.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
    p.extend_from_slice(bytes);
    p.extend_from_slice(b"EOF");
    p
}

/// `gbhost run ROM --repl --no-window --paused` with `extra` arguments, 3 frames stepped,
/// then quit (the battery is saved on the way out). `config`: the config file's text.
fn run_a_little(dir: &Path, rom: &str, extra: &[&str], config: &str, data: &Path) -> Output {
    std::fs::write(dir.join("config.toml"), config).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gbhost"))
        .args(["run", rom, "--repl", "--no-window", "--paused", "--mute"])
        .args(extra)
        .env("GBHOST_STATE_KEY", crate::common::state_key())
        .env("GBHOST_CONFIG", dir.join("config.toml"))
        .env("GBHOST_SAVES_DIR", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gbhost");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"step 3\nquit\n")
        .expect("write stdin");
    child.wait_with_output().expect("wait for gbhost")
}

fn text(o: &Output) -> String {
    crate::common::text(o)
}

#[test]
fn a_patched_games_save_is_named_after_its_patch_and_the_plain_save_stays() {
    let d = temp_dir("patched");
    let rom = d.join("game.gb");
    std::fs::write(&rom, battery_rom()).unwrap();
    std::fs::write(d.join("game.sav"), vec![7u8; 0x2000]).unwrap();
    // The hack: another title (its header checksum is only warned about).
    std::fs::write(d.join("hack.ips"), ips(0x134, b"HACKED")).unwrap();
    let data = d.join("data");
    let out = run_a_little(
        &d,
        rom.to_str().unwrap(),
        &["--patch", d.join("hack.ips").to_str().unwrap()],
        "",
        &data,
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("patched: hack.ips"), "{}", text(&out));
    let hack = std::fs::read(d.join("game+hack.sav")).expect("the hack's save");
    assert_eq!(hack[0], 0x42);
    assert_eq!(
        std::fs::read(d.join("game.sav")).unwrap(),
        vec![7u8; 0x2000],
        "the plain game's save is untouched"
    );
    assert!(!data.exists(), "nothing in the data folder");
}

#[test]
fn the_configured_saves_dir_gets_the_save() {
    let d = temp_dir("configured");
    let rom = d.join("game.gb");
    std::fs::write(&rom, battery_rom()).unwrap();
    let mine = d.join("my saves");
    let config = format!("saves_dir = {:?}\n", mine.to_str().unwrap());
    let out = run_a_little(&d, rom.to_str().unwrap(), &[], &config, &d.join("data"));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read(mine.join("game.sav")).expect("saved")[0],
        0x42
    );
    assert!(!d.join("game.sav").exists(), "nothing beside the ROM");
}

/// The ROM's folder with mode 0555: the save goes to the data folder and stderr says so.
/// Root is not stopped by the mode (the assertion is then skipped, said on stderr); the next
/// test covers that case with a folder nobody can write.
#[cfg(unix)]
#[test]
fn a_read_only_rom_folder_sends_the_save_to_the_data_folder() {
    use std::os::unix::fs::PermissionsExt;
    let d = temp_dir("read-only");
    let roms = d.join("roms");
    std::fs::create_dir_all(&roms).unwrap();
    let rom = roms.join("game.gb");
    std::fs::write(&rom, battery_rom()).unwrap();
    std::fs::set_permissions(&roms, std::fs::Permissions::from_mode(0o555)).unwrap();
    let root = std::fs::write(roms.join("probe"), b"").is_ok();
    let data = d.join("data");
    let out = run_a_little(&d, rom.to_str().unwrap(), &[], "", &data);
    std::fs::set_permissions(&roms, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(out.status.success(), "{}", text(&out));
    if root {
        eprintln!("running as root: mode 0555 does not stop writes; assertion skipped");
        return;
    }
    assert!(text(&out).contains("is not writable"), "{}", text(&out));
    assert_eq!(
        std::fs::read(data.join("game.sav")).expect("saved")[0],
        0x42
    );
    assert!(!roms.join("game.sav").exists());
}

/// A ROM read through `/proc/self/fd/0` (its standard input): nobody, root included, can
/// create files in that folder, so the save goes to the data folder. The run ends on SIGTERM,
/// which saves the battery.
#[cfg(target_os = "linux")]
#[test]
fn a_folder_nobody_can_write_sends_the_save_to_the_data_folder() {
    let d = temp_dir("proc");
    let rom = d.join("game.gb");
    std::fs::write(&rom, battery_rom()).unwrap();
    let data = d.join("data");
    std::fs::write(d.join("config.toml"), "").unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_gbhost"))
        .args(["run", "/proc/self/fd/0", "--no-window", "--mute"])
        .env("GBHOST_STATE_KEY", crate::common::state_key())
        .env("GBHOST_CONFIG", d.join("config.toml"))
        .env("GBHOST_SAVES_DIR", &data)
        .stdin(std::fs::File::open(&rom).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gbhost");
    let t0 = Instant::now();
    while !data.join("0.sav").exists() && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().expect("wait");
    assert!(text(&out).contains("is not writable"), "{}", text(&out));
    assert_eq!(std::fs::read(data.join("0.sav")).expect("saved")[0], 0x42);
}
