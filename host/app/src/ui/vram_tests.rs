//! The video viewers driven by their labels with `egui_kittest`, on small ROMs built in code
//! (`gb_core::asm::RomBuilder`) that set known tiles, a map entry, an object, scroll and
//! window registers and palettes, then halt: the VRAM viewer's tabs and the I/O registers
//! window show those values, follow a rewind, and the machine's video memory is published
//! only while one of them is open; and on uCity (a copy of the shared ROM), its scrolling
//! title screen followed live and after a seek back.

use super::GbApp;
use super::test_support::{self as support, open, settle, step};
use crate::emu::{Cmd, RomSource};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::PathBuf;

/// Tile 1 solid colour 3, map 9800 entry (2, 1) = tile 1, object 3 at Y 56 X 38 tile 1 with
/// flags B0 (behind BG, X flip, OBP1), SCX 0x12, SCY 0x34, BGP 1B, OBP1 0C, WY 0x55, WX 0x0F,
/// LCDC F3 (LCD, window map 9C00, window, tiles 8000, BG map 9800, 8x8 objects, objects, BG).
const DMG_SETUP: &str = "
    xor a
    ldh [$40], a
    ld hl, $8010
    ld b, 16
    ld a, $FF
fill:
    ld [hl+], a
    dec b
    jr nz, fill
    ld a, 1
    ld [$9822], a
    ld hl, $FE0C
    ld a, 56
    ld [hl+], a
    ld a, 38
    ld [hl+], a
    ld a, 1
    ld [hl+], a
    ld a, $B0
    ld [hl+], a
    ld a, $12
    ldh [$43], a
    ld a, $34
    ldh [$42], a
    ld a, $1B
    ldh [$47], a
    ld a, $0C
    ldh [$49], a
    ld a, $55
    ldh [$4A], a
    ld a, $0F
    ldh [$4B], a
";

/// The end of every test program: the LCD on with `lcdc`, then halting forever.
fn program(setup: &str, lcdc: u8) -> String {
    format!(
        "{setup}
    ld a, ${lcdc:02X}
    ldh [$40], a
loop:
    halt
    nop
    jr loop
"
    )
}

/// The CGB program: BG palette 2 = 7FFF 7C00 03E0 001F (BCPS 0x90, auto-increment), map 9800
/// entry (0, 0) attributes 2A (X flip, bank 1, palette 2) in VRAM bank 1.
const CGB_SETUP: &str = "
    xor a
    ldh [$40], a
    ld a, $90
    ldh [$68], a
    ld a, $FF
    ldh [$69], a
    ld a, $7F
    ldh [$69], a
    ld a, $00
    ldh [$69], a
    ld a, $7C
    ldh [$69], a
    ld a, $E0
    ldh [$69], a
    ld a, $03
    ldh [$69], a
    ld a, $1F
    ldh [$69], a
    ld a, $00
    ldh [$69], a
    ld a, 1
    ldh [$4F], a
    ld a, $2A
    ld [$9800], a
    xor a
    ldh [$4F], a
";

struct Rig {
    h: Harness<'static, GbApp>,
    dir: PathBuf,
}

impl Drop for Rig {
    fn drop(&mut self) {
        self.h.state_mut().emu_mut().quit();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn rig(name: &str, rom: Vec<u8>) -> Rig {
    let dir = std::env::temp_dir().join(format!("gbhost-vram-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("viewers.gb");
    std::fs::write(&path, rom).unwrap();
    let h = support::harness(RomSource::File(path), vec![], 4 << 20, [1400.0, 1000.0]);
    Rig { h, dir }
}

fn tab(h: &mut Harness<'static, GbApp>, name: &str) {
    h.get_by_label(name).click();
    h.run_steps(3);
}

/// Hover the point `offset` (in screen points) from the bottom-left of the label `label`
/// (the image drawn right under it, after egui's item spacing).
fn hover_under(h: &mut Harness<'static, GbApp>, label: &str, offset: egui::Vec2) {
    let r = h.get_by_label(label).rect();
    let spacing = h.ctx.global_style().spacing.item_spacing.y;
    h.hover_at(r.left_bottom() + egui::vec2(0.0, spacing) + offset);
    h.run_steps(3);
}

use eframe::egui;

#[test]
fn the_viewers_show_a_dmg_roms_tiles_map_objects_palettes_and_registers() {
    let rom = gb_core::asm::RomBuilder::new()
        .title("VIEWERS")
        .program(&program(DMG_SETUP, 0xF3))
        .build()
        .unwrap();
    let mut r = rig("dmg", rom);
    let h = &mut r.h;
    step(h, 3);
    assert!(h.state().view().video.is_none(), "published while closed");
    open(h, "VRAM viewer");
    assert!(h.state().view().video.is_some());

    // Tiles: one bank on the DMG, the DMG palettes to choose from; tile 1 under the pointer.
    h.get_by_label("Bank 0");
    assert!(h.query_by_label("Bank 1").is_none());
    h.get_by_label("OBP1");
    assert!(h.query_by_label("BG 0").is_none());
    hover_under(h, "Bank 0", egui::vec2(2.0 * 8.0 + 4.0, 4.0));
    h.get_by_label("Tile 1 at 0:8010, number 01");

    // Tile maps: the BG map as LCDC says, the scroll and the window.
    tab(h, "Tile maps");
    h.get_by_label("Map 9800, tiles from 8000");
    h.get_by_label("Scroll SCX 18 SCY 52");
    let window = "Window at (8, 85) (WX 15 WY 85), shown";
    h.get_by_label(window);
    hover_under(h, window, egui::vec2(2.0 * 16.0 + 4.0, 2.0 * 8.0 + 4.0));
    h.get_by_label("(2, 1) at 9822: tile 01 (data 8010)");
    h.get_by_label("Window (LCDC.6)").click();
    h.run_steps(3);
    h.get_by_label("Map 9C00, tiles from 8000");
    h.get_by_label("8800").click();
    h.run_steps(3);
    h.get_by_label("Map 9C00, tiles from 8800");

    // OAM: object 3's place and attributes.
    tab(h, "OAM");
    h.get_by_label("Objects are 8x8 (LCDC.2); positions on the screen in brackets");
    h.get_by_label("03 Y  56 X  38 tile 01 (30, 40) behind BG, X flip, OBP1");
    for i in 0..40 {
        h.get_by_label_contains(&format!("{i:02} Y "));
    }

    // Palettes: BGP 1B reverses the shades; no CGB palettes on the DMG.
    tab(h, "Palettes");
    h.get_by_label("BGP  1B: 3 2 1 0");
    h.get_by_label("OBP1 0C: 0 3 0 0");
    assert!(h.query_by_label_contains("RGB555").is_none());

    // I/O registers: names, values, decoded bits, the CPU.
    open(h, "I/O registers");
    h.get_by_label(
        "FF40 LCDC   F3  LCD on, win map 9C00, win on, tiles 8000, BG map 9800, OBJ 8x8, OBJ on, BG/win on",
    );
    h.get_by_label("FF43 SCX    12");
    h.get_by_label("FF42 SCY    34");
    h.get_by_label("FF4B WX     0F");
    h.get_by_label("FF47 BGP    1B  shades 3 2 1 0");
    h.get_by_label_contains("FF41 STAT ");
    h.get_by_label_contains("FFFF IE ");
    h.get_by_label_contains("FF26 NR52 ");
    h.get_by_label_contains("AF ");
    h.get_by_label_contains("Flags ");

    // Closing both stops the publishing.
    for _ in 0..2 {
        h.get_all_by_label("Close window")
            .next()
            .unwrap()
            .click_accesskit();
        h.run_steps(2);
    }
    assert!(h.query_by_label("Close window").is_none());
    step(h, 1);
    assert!(h.state().view().video.is_none(), "published after closing");
}

#[test]
fn the_viewers_follow_a_rewind() {
    let rom = gb_core::asm::RomBuilder::new()
        .title("VIEWERS")
        .program(&program(DMG_SETUP, 0xF3))
        .build()
        .unwrap();
    let mut r = rig("rewind", rom);
    let h = &mut r.h;
    step(h, 10);
    open(h, "VRAM viewer");
    tab(h, "Tile maps");
    h.get_by_label("Scroll SCX 18 SCY 52");
    let before = h.state().view().timeline.frame;
    h.state().emu().repl("poke FF43 40");
    step(h, 5);
    h.get_by_label("Scroll SCX 64 SCY 52");
    h.state().emu().send(Cmd::Seek(before));
    settle(h);
    assert_eq!(h.state().view().timeline.frame, before);
    h.get_by_label("Scroll SCX 18 SCY 52");
}

#[test]
fn the_viewers_show_a_cgb_games_palettes_bank_1_and_attributes() {
    let rom = gb_core::asm::RomBuilder::new()
        .title("VIEWERS CGB")
        .cgb_flag(0x80)
        .program(&program(CGB_SETUP, 0x91))
        .build()
        .unwrap();
    let mut r = rig("cgb", rom);
    let h = &mut r.h;
    step(h, 3);
    open(h, "VRAM viewer");
    assert!(h.state().view().video.as_ref().unwrap().cgb_mode);
    h.get_by_label("Bank 0");
    h.get_by_label("Bank 1");
    h.get_by_label("OBJ 7");
    assert!(h.query_by_label("BGP").is_none());
    tab(h, "Palettes");
    h.get_by_label("BG  2 7FFF 7C00 03E0 001F");
    h.get_by_label_contains("OBJ 7 ");
    tab(h, "Tile maps");
    h.get_by_label("Map 9800, tiles from 8000");
    hover_under(
        h,
        "Window at (-7, 0) (WX 0 WY 0), hidden",
        egui::vec2(4.0, 4.0),
    );
    h.get_by_label("(0, 0) at 9800: tile 00 (data 8000), bank 1, BG 2, X flip");
    open(h, "I/O registers");
    h.get_by_label("FF4F VBK    FE  bank 0");
    h.get_by_label("FF68 BCPS   D8  index 24, auto-increment");
}

fn peek(h: &Harness<'static, GbApp>, addr: u16) -> u8 {
    let r = h.state().emu().repl(&format!("peek {addr:04X} 1"));
    let hex = r.split_whitespace().nth(1).unwrap_or_else(|| panic!("{r}"));
    u8::from_str_radix(hex, 16).unwrap()
}

/// uCity (a CGB game, a copy of `../shared/roms`) on its title screen, where the map scrolls
/// under the logo: the viewers show what the machine holds at the shown frame, while it runs
/// and after a seek back.
#[test]
fn the_viewers_follow_ucitys_scrolling_title_screen() {
    let Some(path) = gb_testkit::roms::shared_rom("homebrew/ucity/ucity.gbc") else {
        return;
    };
    let mut r = rig("ucity", std::fs::read(path).unwrap());
    let h = &mut r.h;
    step(h, 300);
    open(h, "VRAM viewer");
    open(h, "I/O registers");
    let v = h.state().view().video.clone().unwrap();
    assert!(v.cgb_mode);
    assert_eq!(v.vram.len(), 0x4000);
    h.get_by_label("Bank 1");
    tab(h, "Tile maps");
    let scroll = |h: &Harness<'static, GbApp>| (peek(h, 0xFF43), peek(h, 0xFF42));
    let (scx, scy) = scroll(h);
    h.get_by_label(&format!("Scroll SCX {scx} SCY {scy}"));
    let lcdc = peek(h, 0xFF40);
    h.get_by_label_contains(&format!("FF40 LCDC   {lcdc:02X}  LCD on"));
    let at = h.state().view().timeline.frame;
    step(h, 120);
    let later = scroll(h);
    assert_ne!(later, (scx, scy), "the title screen scrolls");
    h.get_by_label(&format!("Scroll SCX {} SCY {}", later.0, later.1));
    h.get_by_label(&format!("FF43 SCX    {:02X}", later.0));
    h.state().emu().send(Cmd::Seek(at));
    settle(h);
    h.get_by_label(&format!("Scroll SCX {scx} SCY {scy}"));
    h.get_by_label(&format!("FF43 SCX    {scx:02X}"));
    // The palettes tab: the game's 16 CGB palettes.
    tab(h, "Palettes");
    for p in 0..8 {
        h.get_by_label_contains(&format!("BG  {p} "));
        h.get_by_label_contains(&format!("OBJ {p} "));
    }
}
