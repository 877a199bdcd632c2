//! Tests of the renderer against the FIFO replay and of the pixel helpers.

use super::lanes::spread;
use super::render::Palette;
use super::timeline::{DRAW_DELAY, MODE0_START};
use super::{Ppu, WIDTH};

#[test]
fn spread_puts_bit7_in_lane0_and_widens() {
    for v in 0..=255u8 {
        let lanes = spread(v).to_le_bytes();
        for (i, &lane) in lanes.iter().enumerate() {
            let bit = (v >> (7 - i)) & 1;
            assert_eq!(
                lane,
                if bit == 1 { 0xFF } else { 0 },
                "value {v:#04x} lane {i}"
            );
        }
    }
}

/// The FIFO replay with no writes draws exactly what the whole-line path draws, for random
/// tiles, maps, scroll, window position, palettes and objects.
#[test]
fn fifo_replay_without_writes_matches_the_whole_line_path() {
    let mut seed = 0x9E37_79B9u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    for case in 0..600 {
        let mut ppu = Ppu::new();
        for b in ppu.vram.iter_mut() {
            *b = next() as u8;
        }
        ppu.lcdc = 0x81 | (next() as u8 & 0x7E);
        ppu.scx = next() as u8;
        ppu.scy = next() as u8;
        ppu.bgp = next() as u8;
        ppu.obp0 = next() as u8;
        ppu.obp1 = next() as u8;
        ppu.wx = (next() % 180) as u8;
        ppu.line = (next() % 144) as u8;
        ppu.window_line = (next() % 144) as u8;
        ppu.wy_triggered = next() & 1 == 0;
        // The DMG's WX 166 on the line before starts this one in the window.
        ppu.line_regs.window_carry = next() & 3 == 0;
        // Objects near the line, X often equal or close to each other.
        let base_x = (next() % 176) as u8;
        for (i, b) in ppu.oam.iter_mut().enumerate() {
            let r = next() as u8;
            *b = match i % 4 {
                0 => ppu.line.wrapping_add(16).wrapping_sub(r % 20),
                1 if r & 1 == 0 => base_x.wrapping_add(r % 12),
                _ => r,
            };
        }
        ppu.oam_scan(ppu.lcdc);
        let regs = super::fifo::LineRegs {
            lcdc: ppu.lcdc,
            scy: ppu.scy,
            scx: ppu.scx,
            bgp: ppu.bgp,
            obp0: ppu.obp0,
            obp1: ppu.obp1,
            wx: ppu.wx,
            ly: ppu.line,
            window_line: ppu.window_line,
            wy_triggered: ppu.wy_triggered,
            window_carry: ppu.line_regs.window_carry,
        };
        let row = usize::from(ppu.line) * WIDTH;
        let opaque = ppu.render_whole_line(row);
        if ppu.lcdc & 0x02 != 0 {
            ppu.render_sprites(row, &opaque);
        }
        let whole: Vec<u16> = ppu.framebuffer.pixels()[row..row + WIDTH].to_vec();
        let mut shades = [0u16; WIDTH];
        let input = super::fifo::LineInput {
            vram: &ppu.vram,
            oam: &ppu.oam,
            objects: ppu.line_objects(),
            cgb: false,
            dmg_order: false,
            cgb_hardware: false,
            cgb_d: false,
            double_speed: false,
            bg_palettes: &[0; 64],
            obj_palettes: &[0; 64],
        };
        let end = super::fifo::render(input, regs, &[], &mut shades);
        // Objects' shades come tagged with their palette (for the CGB's compatibility mode).
        for s in &mut shades {
            *s &= 3;
        }
        // The replay's last pixel comes DRAW_DELAY dots after the timeline's mode 0 (objects
        // after the window's start wait for the window's tiles: `Ppu::mode3_penalty`).
        assert_eq!(
            u64::from(end.dot),
            MODE0_START + ppu.mode3_penalty() + DRAW_DELAY + 1,
            "case {case}: mode 3 length, {regs:?}"
        );
        assert_eq!(
            &shades[..],
            &whole[..],
            "case {case}: {regs:?}\nfifo  {shades:?}\nwhole {whole:?}\nobjects {:?}",
            ppu.line_objects()
                .iter()
                .map(|&i| &ppu.oam[usize::from(i) * 4..usize::from(i) * 4 + 4])
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn palette_maps_each_index() {
    let pal = Palette::new(0b11_10_01_00);
    // Pixels with indices 0,1,2,3,0,1,2,3.
    let lo = spread(0b0101_0101);
    let hi = spread(0b0011_0011);
    assert_eq!(pal.apply(lo, hi).to_le_bytes(), [0, 1, 2, 3, 0, 1, 2, 3]);
}

/// A PPU on `line` with the LCD on, S at time 1000 (its line start just processed), on the
/// CGB (CGB mode) or the DMG.
fn ppu_at_line(line: u8, cgb: bool) -> Ppu {
    let mut ppu = Ppu::post_boot(1000, line, 0);
    ppu.set_model(cgb, cgb);
    ppu
}

/// STAT's mode as the CPU reads it at `t`.
fn stat_mode(ppu: &mut Ppu, t: u64) -> u8 {
    ppu.run_events(t);
    ppu.read_register(0xFF41) & 3
}

/// The CGB's STAT reads mode 2 from S+2 and mode 3 from S+82; the DMG's from S+4 and S+84.
#[test]
fn cgb_mode2_and_mode3_start_two_dots_early() {
    let mut cgb = ppu_at_line(10, true);
    assert_eq!(stat_mode(&mut cgb, 1001), 0);
    assert_eq!(stat_mode(&mut cgb, 1002), 2);
    assert_eq!(stat_mode(&mut cgb, 1081), 2);
    assert_eq!(stat_mode(&mut cgb, 1082), 3);
    // STAT's mode bits alone see each a dot earlier.
    let mut cgb = ppu_at_line(10, true);
    cgb.run_events(1001);
    assert_eq!(cgb.read_register_at(0xFF41, 1001) & 3, 2);
    cgb.run_events(1081);
    assert_eq!(cgb.read_register_at(0xFF41, 1081) & 3, 3);
    let mut dmg = ppu_at_line(10, false);
    assert_eq!(stat_mode(&mut dmg, 1002), 0);
    assert_eq!(stat_mode(&mut dmg, 1004), 2);
    assert_eq!(stat_mode(&mut dmg, 1082), 2);
    assert_eq!(stat_mode(&mut dmg, 1084), 3);
}

/// On the CGB, LY reads the old and the new line ANDed in the 2 dots before S at normal speed
/// (only a CPU out of step with the PPU reads there); `delay` moves every edge.
#[test]
fn cgb_ly_reads_old_and_new_in_the_dots_before_s() {
    let mut cgb = ppu_at_line(11, true);
    cgb.run_events(1000 + 453);
    assert_eq!(cgb.read_register(0xFF44), 11);
    cgb.run_events(1000 + 454);
    assert_eq!(cgb.read_register(0xFF44), 11 & 12);
    cgb.run_events(1000 + 455);
    assert_eq!(cgb.read_register(0xFF44), 11 & 12);
    cgb.run_events(1000 + 456);
    assert_eq!(cgb.read_register(0xFF44), 12);
    // Held a dot: the next line's edges come a dot later.
    cgb.delay(1);
    assert_eq!(stat_mode(&mut cgb, 1456 + 2), 0);
    assert_eq!(stat_mode(&mut cgb, 1456 + 3), 2);
    let mut dmg = ppu_at_line(11, false);
    dmg.run_events(1000 + 455);
    assert_eq!(dmg.read_register(0xFF44), 11);
}

/// The CGB fetches the line's objects with LCDC.1 clear too: mode 3 is as long as with it set.
#[test]
fn cgb_objects_lengthen_mode3_with_lcdc1_clear() {
    for cgb in [false, true] {
        let mut ppu = ppu_at_line(20, cgb);
        // One object on line 20 at X 50.
        ppu.oam[0] = 20 + 16;
        ppu.oam[1] = 50;
        ppu.lcdc = 0x81;
        ppu.scx = 0;
        ppu.oam_scan(ppu.lcdc);
        let penalty = ppu.mode3_penalty();
        assert_eq!(penalty, if cgb { 3 + 6 } else { 0 }, "cgb {cgb}");
    }
}

/// At double speed STAT reads mode 0 a dot later (S+254 with no penalty, not S+253).
#[test]
fn cgb_double_speed_reads_mode0_a_dot_later() {
    for double in [false, true] {
        let mut ppu = ppu_at_line(10, true);
        ppu.set_double_speed(double);
        let first = 1000 + MODE0_START + u64::from(double);
        assert_eq!(stat_mode(&mut ppu, first - 1), 3, "double {double}");
        assert_eq!(stat_mode(&mut ppu, first), 0, "double {double}");
    }
}
