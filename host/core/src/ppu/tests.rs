//! Tests of the renderer against the FIFO replay and of the pixel helpers.

use super::render::{Palette, spread};
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
        };
        let row = usize::from(ppu.line) * WIDTH;
        ppu.render_whole_line(row);
        if ppu.lcdc & 0x02 != 0 {
            ppu.render_sprites(row);
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
            bg_palettes: &[0; 64],
            obj_palettes: &[0; 64],
        };
        let end = super::fifo::render(input, regs, &[], &mut shades);
        // Objects' shades come tagged with their palette (for the CGB's compatibility mode).
        for s in &mut shades {
            *s &= 3;
        }
        // The replay's last pixel comes DRAW_DELAY dots after the timeline's mode 0. Lines
        // with both objects and the window are not compared: the timeline's penalty
        // ignores how the window moves the tiles.
        let objects = ppu.fetches_objects();
        let window = ppu.lcdc & 0x01 != 0 && ppu.window_on_line();
        if !(objects && window) {
            assert_eq!(
                u64::from(end.dot),
                MODE0_START + ppu.mode3_penalty() + DRAW_DELAY + 1,
                "case {case}: mode 3 length, {regs:?}"
            );
        }
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
