//! Decoding video memory for the viewers, as pure functions of the bytes (Pan Docs' names):
//! tiles (2 bits per pixel, 16 bytes a tile) to colour indices, palettes (BGP/OBP0/OBP1
//! shades, CGB RGB555 palette RAM) to colours, the BG/window tile maps with their CGB
//! attributes, the SCX/SCY viewport's rectangles on the 256×256 map, and OAM's objects. Images
//! come out as RGBA bytes (4 per pixel) ready for a texture; nothing here panics on short
//! memory (missing bytes read as 0).

use gb_core::ColorCorrection;
use gb_core::screen::GAME;

use crate::emu::VideoView;

/// Tiles in one VRAM bank (0x8000-0x97FF).
pub const TILES_PER_BANK: usize = 384;
/// Tiles a row of the tile sheet shows.
pub const SHEET_COLUMNS: usize = 16;
/// The tile sheet of one bank: width and height in pixels.
pub const SHEET_SIZE: [usize; 2] = [SHEET_COLUMNS * 8, TILES_PER_BANK / SHEET_COLUMNS * 8];
/// Bytes of one VRAM bank.
const BANK: usize = 0x2000;

/// Gray shades (lightest first), for the "Gray" palette.
pub const GRAY: [[u8; 3]; 4] = [[0xFF; 3], [0xAA; 3], [0x55; 3], [0x00; 3]];

/// The colour indices (0-3) of a tile's pixels, row by row, from its 16 bytes (each row: a
/// low-bit byte then a high-bit byte, leftmost pixel in bit 7).
pub fn tile_pixels(bytes: &[u8]) -> [[u8; 8]; 8] {
    let mut out = [[0u8; 8]; 8];
    for (y, row) in out.iter_mut().enumerate() {
        let lo = bytes.get(2 * y).copied().unwrap_or(0);
        let hi = bytes.get(2 * y + 1).copied().unwrap_or(0);
        for (x, px) in row.iter_mut().enumerate() {
            let bit = 7 - x;
            *px = ((lo >> bit) & 1) | (((hi >> bit) & 1) << 1);
        }
    }
    out
}

/// The shade (0 lightest - 3 darkest) a DMG palette register (BGP, OBP0, OBP1) gives colour
/// index `index`.
pub fn dmg_shade(palette: u8, index: u8) -> u8 {
    (palette >> (2 * (index & 3))) & 3
}

/// Colour `index` (0-3) of palette `palette` (0-7) of CGB palette RAM (BCPD's or OCPD's 64
/// bytes), as RGB555.
pub fn cgb_color(ram: &[u8; 64], palette: u8, index: u8) -> u16 {
    let i = usize::from(palette & 7) * 8 + usize::from(index & 3) * 2;
    u16::from_le_bytes([ram[i], ram[i + 1]]) & 0x7FFF
}

/// The palette tiles are drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PaletteChoice {
    /// Four grays.
    #[default]
    Gray,
    /// The DMG background palette.
    Bgp,
    /// DMG object palette 0.
    Obp0,
    /// DMG object palette 1.
    Obp1,
    /// CGB background palette 0-7.
    CgbBg(u8),
    /// CGB object palette 0-7.
    CgbObj(u8),
}

impl PaletteChoice {
    /// Its name in the window.
    pub fn name(self) -> String {
        match self {
            PaletteChoice::Gray => "Gray".into(),
            PaletteChoice::Bgp => "BGP".into(),
            PaletteChoice::Obp0 => "OBP0".into(),
            PaletteChoice::Obp1 => "OBP1".into(),
            PaletteChoice::CgbBg(p) => format!("BG {p}"),
            PaletteChoice::CgbObj(p) => format!("OBJ {p}"),
        }
    }

    /// The choices that make sense for the machine (the CGB's palettes in CGB mode, the DMG
    /// registers otherwise), gray first.
    pub fn all(cgb_mode: bool) -> Vec<PaletteChoice> {
        let mut v = vec![PaletteChoice::Gray];
        if cgb_mode {
            v.extend((0..8).map(PaletteChoice::CgbBg));
            v.extend((0..8).map(PaletteChoice::CgbObj));
        } else {
            v.extend([PaletteChoice::Bgp, PaletteChoice::Obp0, PaletteChoice::Obp1]);
        }
        v
    }
}

/// The four colours of a palette as 8-bit RGB: DMG shades in `dmg` colours, except for a DMG
/// game on the CGB (its compatibility mode), where BGP's shades index CGB background palette
/// 0 and OBP0's and OBP1's object palettes 0 and 1, as the screen shows them.
pub fn colors(
    v: &VideoView,
    choice: PaletteChoice,
    dmg: &[[u8; 3]; 4],
    correction: ColorCorrection,
) -> [[u8; 3]; 4] {
    let rgb = |c: u16| gb_core::frame::rgb555_to_rgb888(c, correction);
    let compat = v.model == gb_core::Model::Cgb && !v.cgb_mode;
    let from_dmg = |reg: u16| {
        let p = v.reg(reg);
        [0, 1, 2, 3].map(|i| {
            let shade = dmg_shade(p, i);
            if !compat {
                dmg[usize::from(shade)]
            } else if reg == 0xFF47 {
                rgb(cgb_color(&v.bg_palettes, 0, shade))
            } else {
                rgb(cgb_color(&v.obj_palettes, (reg - 0xFF48) as u8, shade))
            }
        })
    };
    let from_cgb = |ram: &[u8; 64], p: u8| [0, 1, 2, 3].map(|i| rgb(cgb_color(ram, p, i)));
    match choice {
        PaletteChoice::Gray => GRAY,
        PaletteChoice::Bgp => from_dmg(0xFF47),
        PaletteChoice::Obp0 => from_dmg(0xFF48),
        PaletteChoice::Obp1 => from_dmg(0xFF49),
        PaletteChoice::CgbBg(p) => from_cgb(&v.bg_palettes, p),
        PaletteChoice::CgbObj(p) => from_cgb(&v.obj_palettes, p),
    }
}

/// The 16 bytes of tile `index` (0-383) of VRAM bank `bank`.
pub fn tile_bytes(vram: &[u8], bank: usize, index: usize) -> &[u8] {
    let at = bank * BANK + index * 16;
    vram.get(at..at + 16).unwrap_or(&[])
}

/// The address of tile `index` (0-383) in the CPU's map (0x8000-0x97F0).
pub fn tile_address(index: usize) -> u16 {
    0x8000 + (index as u16) * 16
}

/// Which tile (0-383 of a bank) a map entry's tile number names: LCDC.4 set, 0x8000-based
/// unsigned numbers; clear, 0x9000-based signed ones (128-255 at 0x8800-0x8FFF).
pub fn tile_index(tile: u8, unsigned_8000: bool) -> usize {
    if unsigned_8000 || tile >= 128 {
        usize::from(tile)
    } else {
        256 + usize::from(tile)
    }
}

/// Draw tile `pixels` into an RGBA image `width` pixels wide at (`x`, `y`), flipped as asked,
/// colour index 0 transparent when `clear0`.
#[allow(clippy::too_many_arguments)]
fn blit(
    out: &mut [u8],
    width: usize,
    x: usize,
    y: usize,
    pixels: &[[u8; 8]; 8],
    colors: &[[u8; 3]; 4],
    (xflip, yflip): (bool, bool),
    clear0: bool,
) {
    for (ty, row) in pixels.iter().enumerate() {
        let dy = if yflip { 7 - ty } else { ty };
        for (tx, &c) in row.iter().enumerate() {
            let dx = if xflip { 7 - tx } else { tx };
            let i = ((y + dy) * width + x + dx) * 4;
            if let Some(px) = out.get_mut(i..i + 4) {
                let [r, g, b] = colors[usize::from(c & 3)];
                let a = if clear0 && c == 0 { 0 } else { 255 };
                px.copy_from_slice(&[r, g, b, a]);
            }
        }
    }
}

/// The 384 tiles of VRAM bank `bank` as a [`SHEET_SIZE`] RGBA image, 16 tiles a row
/// (tile `i` at column `i % 16`, row `i / 16`).
pub fn tile_sheet(vram: &[u8], bank: usize, colors: &[[u8; 3]; 4]) -> Vec<u8> {
    let [w, h] = SHEET_SIZE;
    let mut out = vec![0u8; w * h * 4];
    for i in 0..TILES_PER_BANK {
        let px = tile_pixels(tile_bytes(vram, bank, i));
        let (x, y) = ((i % SHEET_COLUMNS) * 8, (i / SHEET_COLUMNS) * 8);
        blit(&mut out, w, x, y, &px, colors, (false, false), false);
    }
    out
}

/// A CGB background map attribute byte (VRAM bank 1, same place as the tile number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BgAttrs {
    /// Bit 7: the BG is drawn over objects.
    pub priority: bool,
    /// Bit 6: flipped vertically.
    pub yflip: bool,
    /// Bit 5: flipped horizontally.
    pub xflip: bool,
    /// Bit 3: the tile's VRAM bank.
    pub bank: u8,
    /// Bits 0-2: the BG palette.
    pub palette: u8,
}

impl BgAttrs {
    /// Decode an attribute byte.
    pub fn new(b: u8) -> BgAttrs {
        BgAttrs {
            priority: b & 0x80 != 0,
            yflip: b & 0x40 != 0,
            xflip: b & 0x20 != 0,
            bank: (b >> 3) & 1,
            palette: b & 7,
        }
    }
}

/// One entry of a 32×32 tile map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapEntry {
    /// Where its tile number is (0x9800-0x9FFF).
    pub address: u16,
    /// The tile number.
    pub tile: u8,
    /// Its CGB attributes (all clear on the DMG or in DMG mode).
    pub attrs: BgAttrs,
}

/// Entry (`col`, `row`) of the map at `base` (0x9800 or 0x9C00); attributes only in CGB mode.
pub fn map_entry(v: &VideoView, base: u16, col: usize, row: usize) -> MapEntry {
    let off = usize::from(base.wrapping_sub(0x8000) & 0x1C00) + (row & 31) * 32 + (col & 31);
    let tile = v.vram.get(off).copied().unwrap_or(0);
    let attrs = if v.cgb_mode {
        BgAttrs::new(v.vram.get(BANK + off).copied().unwrap_or(0))
    } else {
        BgAttrs::default()
    };
    MapEntry {
        address: 0x8000 + off as u16,
        tile,
        attrs,
    }
}

/// The 32×32 map at `base` as a 256×256 RGBA image, tile data per `unsigned_8000` (LCDC.4),
/// in each tile's CGB palette, bank and flips in CGB mode, else in BGP shades of `dmg`.
pub fn map_image(
    v: &VideoView,
    base: u16,
    unsigned_8000: bool,
    dmg: &[[u8; 3]; 4],
    correction: ColorCorrection,
) -> Vec<u8> {
    let mut out = vec![0u8; 256 * 256 * 4];
    let bgp = colors(v, PaletteChoice::Bgp, dmg, correction);
    let cgb: Vec<[[u8; 3]; 4]> = (0..8)
        .map(|p| colors(v, PaletteChoice::CgbBg(p), dmg, correction))
        .collect();
    for row in 0..32 {
        for col in 0..32 {
            let e = map_entry(v, base, col, row);
            let index = tile_index(e.tile, unsigned_8000);
            let bank = usize::from(e.attrs.bank);
            let px = tile_pixels(tile_bytes(&v.vram, bank, index));
            let pal = if v.cgb_mode {
                &cgb[usize::from(e.attrs.palette)]
            } else {
                &bgp
            };
            let flips = (e.attrs.xflip, e.attrs.yflip);
            blit(&mut out, 256, col * 8, row * 8, &px, pal, flips, false);
        }
    }
    out
}

/// A rectangle on the 256×256 map: x, y, width, height in pixels.
pub type MapRect = [u16; 4];

/// The screen's 160×144 viewport at (`scx`, `scy`) on the 256×256 background map, as 1 to 4
/// rectangles inside the map (it wraps around the right and bottom edges).
pub fn viewport_rects(scx: u8, scy: u8) -> Vec<MapRect> {
    wrapped_rects(scx, scy, GAME.width as u16, GAME.height as u16)
}

/// A `w`×`h` rectangle (at most 256×256) at (`x`, `y`) on the 256×256 map, as 1 to 4
/// rectangles inside it (wrapping around the right and bottom edges); none when empty.
pub fn wrapped_rects(x: u8, y: u8, w: u16, h: u16) -> Vec<MapRect> {
    let spans = |start: u8, len: u16| -> Vec<(u16, u16)> {
        let (s, len) = (u16::from(start), len.min(256));
        if len == 0 {
            vec![]
        } else if s + len <= 256 {
            vec![(s, len)]
        } else {
            vec![(s, 256 - s), (0, s + len - 256)]
        }
    };
    let mut out = Vec::new();
    for (y, h) in spans(y, h) {
        for &(x, w) in &spans(x, w) {
            out.push([x, y, w, h]);
        }
    }
    out
}

/// Where the window covers the screen, on the background map scrolled to (`scx`, `scy`): the
/// part of the viewport from the window's corner (WX - 7, WY) to the screen's edges, as
/// rectangles inside the map; none when the window cannot show.
pub fn window_over_bg(scx: u8, scy: u8, wx: u8, wy: u8) -> Vec<MapRect> {
    let (x, y, shows) = window_position(wx, wy);
    if !shows {
        return vec![];
    }
    let (x, y) = (x.max(0) as u16, y.max(0) as u16);
    wrapped_rects(
        scx.wrapping_add(x as u8),
        scy.wrapping_add(y as u8),
        GAME.width as u16 - x,
        GAME.height as u16 - y,
    )
}

/// Where the window's top-left corner is on the screen, from WX and WY (WX - 7, WY), and
/// whether it can show at all (WX ≤ 166, WY ≤ 143).
pub fn window_position(wx: u8, wy: u8) -> (i16, i16, bool) {
    (i16::from(wx) - 7, i16::from(wy), wx <= 166 && wy <= 143)
}

/// One object of OAM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Object {
    /// Its number (0-39).
    pub index: usize,
    /// Y + 16 (byte 0).
    pub y: u8,
    /// X + 8 (byte 1).
    pub x: u8,
    /// The tile number (byte 2; bit 0 ignored for 8×16 objects).
    pub tile: u8,
    /// The attribute byte (byte 3).
    pub flags: u8,
}

impl Object {
    /// Bit 7: drawn behind BG colours 1-3.
    pub fn behind_bg(&self) -> bool {
        self.flags & 0x80 != 0
    }

    /// Bit 6: flipped vertically.
    pub fn yflip(&self) -> bool {
        self.flags & 0x40 != 0
    }

    /// Bit 5: flipped horizontally.
    pub fn xflip(&self) -> bool {
        self.flags & 0x20 != 0
    }

    /// Bit 4: the DMG palette (0: OBP0, 1: OBP1).
    pub fn dmg_palette(&self) -> u8 {
        (self.flags >> 4) & 1
    }

    /// Bit 3: the CGB VRAM bank of its tile.
    pub fn cgb_bank(&self) -> u8 {
        (self.flags >> 3) & 1
    }

    /// Bits 0-2: the CGB object palette.
    pub fn cgb_palette(&self) -> u8 {
        self.flags & 7
    }

    /// Where it is on the screen: X - 8, Y - 16.
    pub fn screen_pos(&self) -> (i16, i16) {
        (i16::from(self.x) - 8, i16::from(self.y) - 16)
    }

    /// Whether any of it is on the screen (an object `height` pixels tall).
    pub fn on_screen(&self, height: u8) -> bool {
        let (x, y) = self.screen_pos();
        x > -8 && x < GAME.width as i16 && y > -i16::from(height) && y < GAME.height as i16
    }

    /// Its attributes in words: priority, flips, palette (the DMG's, or the CGB's bank and
    /// palette in CGB mode).
    pub fn describe(&self, cgb_mode: bool) -> String {
        let mut parts = vec![
            if self.behind_bg() {
                "behind BG"
            } else {
                "over BG"
            }
            .to_owned(),
        ];
        if self.xflip() {
            parts.push("X flip".into());
        }
        if self.yflip() {
            parts.push("Y flip".into());
        }
        if cgb_mode {
            parts.push(format!("bank {}", self.cgb_bank()));
            parts.push(format!("OBJ {}", self.cgb_palette()));
        } else {
            parts.push(format!("OBP{}", self.dmg_palette()));
        }
        parts.join(", ")
    }
}

/// The 40 objects of OAM.
pub fn objects(oam: &[u8]) -> Vec<Object> {
    (0..40)
        .map(|i| {
            let b = |k: usize| oam.get(i * 4 + k).copied().unwrap_or(0);
            Object {
                index: i,
                y: b(0),
                x: b(1),
                tile: b(2),
                flags: b(3),
            }
        })
        .collect()
}

/// An object as it is drawn (flips, its palette, colour 0 transparent), 8 pixels wide and
/// 8 or 16 (`tall`, LCDC.2) high, as RGBA.
pub fn object_image(
    v: &VideoView,
    o: &Object,
    tall: bool,
    dmg: &[[u8; 3]; 4],
    correction: ColorCorrection,
) -> Vec<u8> {
    let h = if tall { 16 } else { 8 };
    let mut out = vec![0u8; 8 * h * 4];
    let choice = if v.cgb_mode {
        PaletteChoice::CgbObj(o.cgb_palette())
    } else if o.dmg_palette() == 1 {
        PaletteChoice::Obp1
    } else {
        PaletteChoice::Obp0
    };
    let pal = colors(v, choice, dmg, correction);
    let bank = if v.cgb_mode {
        usize::from(o.cgb_bank())
    } else {
        0
    };
    let tiles: Vec<u8> = if tall {
        vec![o.tile & 0xFE, o.tile | 1]
    } else {
        vec![o.tile]
    };
    for (k, &t) in tiles.iter().enumerate() {
        let px = tile_pixels(tile_bytes(&v.vram, bank, usize::from(t)));
        // Flipped vertically, an 8×16 object's halves swap too.
        let slot = if o.yflip() { tiles.len() - 1 - k } else { k };
        blit(
            &mut out,
            8,
            0,
            slot * 8,
            &px,
            &pal,
            (o.xflip(), o.yflip()),
            true,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn video() -> VideoView {
        VideoView {
            frame: 0,
            model: gb_core::Model::Dmg,
            cgb_mode: false,
            vram: vec![0; 0x2000],
            oam: vec![0; 160],
            io: vec![0; 0x80],
            ie: 0,
            bg_palettes: [0; 64],
            obj_palettes: [0; 64],
            regs: Default::default(),
            ime: false,
            halted: false,
        }
    }

    /// Pan Docs' example tile (3C 7E 42 42 42 42 42 42 7E 5E 7E 0A 7C 56 38 7C) decodes to
    /// its documented pixels.
    #[test]
    fn pan_docs_tile_decodes_to_its_pixels() {
        let bytes = [
            0x3C, 0x7E, 0x42, 0x42, 0x42, 0x42, 0x42, 0x42, 0x7E, 0x5E, 0x7E, 0x0A, 0x7C, 0x56,
            0x38, 0x7C,
        ];
        let rows: Vec<String> = tile_pixels(&bytes)
            .iter()
            .map(|r| r.iter().map(|p| char::from(b'0' + p)).collect())
            .collect();
        assert_eq!(
            rows,
            [
                "02333320", "03000030", "03000030", "03000030", "03133330", "01113130", "03131320",
                "02333200"
            ]
        );
        // Missing bytes read as 0.
        assert_eq!(tile_pixels(&[0xFF]), {
            let mut t = [[0; 8]; 8];
            t[0] = [1; 8];
            t
        });
    }

    #[test]
    fn palettes_decode_to_shades_and_colours() {
        // BGP 0xE4: indices 0-3 are shades 0-3; 0x1B reverses them.
        assert_eq!([0, 1, 2, 3].map(|i| dmg_shade(0xE4, i)), [0, 1, 2, 3]);
        assert_eq!([0, 1, 2, 3].map(|i| dmg_shade(0x1B, i)), [3, 2, 1, 0]);
        let mut v = video();
        v.io[0x47] = 0x1B;
        assert_eq!(
            colors(&v, PaletteChoice::Bgp, &GRAY, ColorCorrection::Off),
            [GRAY[3], GRAY[2], GRAY[1], GRAY[0]]
        );
        // CGB palette 2, colour 1: pure red (0x001F), little-endian at 2*8 + 2.
        v.bg_palettes[18] = 0x1F;
        assert_eq!(cgb_color(&v.bg_palettes, 2, 1), 0x001F);
        assert_eq!(
            colors(&v, PaletteChoice::CgbBg(2), &GRAY, ColorCorrection::Off)[1],
            [0xFF, 0, 0]
        );
        // A DMG game on the CGB: BGP's shades index BG palette 0, OBP1's OBJ palette 1.
        let mut c = v.clone();
        c.model = gb_core::Model::Cgb;
        c.bg_palettes[0..8].copy_from_slice(&[0xFF, 0x7F, 0x1F, 0, 0xE0, 0x03, 0, 0x7C]);
        c.obj_palettes[8..16].copy_from_slice(&[0, 0, 0, 0, 0, 0, 0x1F, 0]);
        c.io[0x49] = 0xC0; // OBP1: index 3 -> shade 3.
        assert_eq!(
            colors(&c, PaletteChoice::Bgp, &GRAY, ColorCorrection::Off),
            [[0, 0, 0xFF], [0, 0xFF, 0], [0xFF, 0, 0], [0xFF, 0xFF, 0xFF]]
        );
        assert_eq!(
            colors(&c, PaletteChoice::Obp1, &GRAY, ColorCorrection::Off)[3],
            [0xFF, 0, 0]
        );
        v.obj_palettes[63] = 0xFF;
        assert_eq!(cgb_color(&v.obj_palettes, 7, 3), 0x7F00);
        assert_eq!(PaletteChoice::all(false).len(), 4);
        assert_eq!(PaletteChoice::all(true).len(), 17);
        assert_eq!(PaletteChoice::CgbObj(5).name(), "OBJ 5");
    }

    #[test]
    fn map_tile_numbers_follow_lcdc4() {
        assert_eq!(tile_index(0, true), 0);
        assert_eq!(tile_index(0x80, true), 0x80);
        assert_eq!(tile_index(0, false), 256);
        assert_eq!(tile_index(0x7F, false), 383);
        assert_eq!(tile_index(0x80, false), 128);
        assert_eq!(tile_index(0xFF, false), 255);
        assert_eq!(tile_address(256), 0x9000);
        assert_eq!(tile_address(383), 0x97F0);
    }

    #[test]
    fn sheet_and_map_draw_known_tiles() {
        let mut v = video();
        // Tile 1: a solid colour-3 tile; tile 256 (0x9000): a colour-1 top row.
        v.vram[16..32].fill(0xFF);
        v.vram[0x1000] = 0xFF;
        v.io[0x47] = 0xE4;
        let sheet = tile_sheet(&v.vram, 0, &GRAY);
        assert_eq!(sheet.len(), 128 * 192 * 4);
        let at = |img: &[u8], w: usize, x: usize, y: usize| {
            let i = (y * w + x) * 4;
            [img[i], img[i + 1], img[i + 2], img[i + 3]]
        };
        assert_eq!(at(&sheet, 128, 8, 0), [0, 0, 0, 255]);
        assert_eq!(at(&sheet, 128, 7, 0), [255, 255, 255, 255]);
        // Tile 256 sits at column 0, row 16 of the sheet.
        assert_eq!(at(&sheet, 128, 0, 128), [0xAA, 0xAA, 0xAA, 255]);
        // The map at 0x9800, entry (2, 1) names tile 1; entry (0, 0) tile 0.
        v.vram[0x1800 + 32 + 2] = 1;
        let map = map_image(&v, 0x9800, true, &GRAY, ColorCorrection::Off);
        assert_eq!(at(&map, 256, 16, 8), [0, 0, 0, 255]);
        assert_eq!(at(&map, 256, 0, 0), [255, 255, 255, 255]);
        // 0x8800 addressing: tile number 0 is tile 256.
        let map = map_image(&v, 0x9800, false, &GRAY, ColorCorrection::Off);
        assert_eq!(at(&map, 256, 0, 0), [0xAA, 0xAA, 0xAA, 255]);
        assert_eq!(map_entry(&v, 0x9800, 2, 1).address, 0x9822);
        assert_eq!(map_entry(&v, 0x9C00, 31, 31).address, 0x9FFF);
    }

    #[test]
    fn cgb_map_attributes_come_from_bank_1() {
        let mut v = video();
        v.cgb_mode = true;
        v.vram = vec![0; 0x4000];
        v.vram[0x2000 + 0x1C00 + 5] = 0b1110_1011;
        let e = map_entry(&v, 0x9C00, 5, 0);
        assert_eq!(
            e.attrs,
            BgAttrs {
                priority: true,
                yflip: true,
                xflip: true,
                bank: 1,
                palette: 3
            }
        );
        v.cgb_mode = false;
        assert_eq!(map_entry(&v, 0x9C00, 5, 0).attrs, BgAttrs::default());
    }

    #[test]
    fn the_viewport_wraps_around_the_map() {
        assert_eq!(viewport_rects(0, 0), vec![[0, 0, 160, 144]]);
        assert_eq!(viewport_rects(96, 112), vec![[96, 112, 160, 144]]);
        assert_eq!(
            viewport_rects(200, 0),
            vec![[200, 0, 56, 144], [0, 0, 104, 144]]
        );
        assert_eq!(
            viewport_rects(200, 150),
            vec![
                [200, 150, 56, 106],
                [0, 150, 104, 106],
                [200, 0, 56, 38],
                [0, 0, 104, 38]
            ]
        );
        assert!(wrapped_rects(10, 10, 0, 5).is_empty());
        // The window from (WX 87 - 7, WY 100) = (80, 100) on the screen, SCX 200: the
        // screen's (80..160, 100..144) is the map's (24..104, 100..144).
        assert_eq!(window_over_bg(200, 0, 87, 100), vec![[24, 100, 80, 44]]);
        // WX 0: the window starts 7 pixels left of the screen, covering all of its width.
        assert_eq!(
            window_over_bg(0, 250, 0, 0),
            vec![[0, 250, 160, 6], [0, 0, 160, 138]]
        );
        assert!(window_over_bg(0, 0, 167, 0).is_empty());
        assert_eq!(window_position(7, 0), (0, 0, true));
        assert_eq!(window_position(167, 10), (160, 10, false));
    }

    #[test]
    fn objects_decode_their_attributes_and_draw_flipped() {
        let mut oam = vec![0u8; 160];
        oam[4..8].copy_from_slice(&[16 + 40, 8 + 30, 0x11, 0b1011_0010]);
        let objs = objects(&oam);
        assert_eq!(objs.len(), 40);
        let o = objs[1];
        assert_eq!((o.y, o.x, o.tile), (56, 38, 0x11));
        assert_eq!(o.screen_pos(), (30, 40));
        assert!(o.behind_bg() && o.xflip() && !o.yflip());
        assert_eq!(o.dmg_palette(), 1);
        assert_eq!(o.cgb_palette(), 2);
        assert_eq!(o.describe(false), "behind BG, X flip, OBP1");
        assert_eq!(o.describe(true), "behind BG, X flip, bank 0, OBJ 2");
        assert!(o.on_screen(8));
        assert!(!objs[0].on_screen(16));
        // Tile 0x11: only its top row's leftmost pixel, colour 1; drawn X-flipped with OBP1.
        let mut v = video();
        v.vram[0x110] = 0x80;
        v.io[0x49] = 0b0000_1100; // OBP1: index 1 -> shade 3.
        let img = object_image(&v, &o, false, &GRAY, ColorCorrection::Off);
        assert_eq!(img.len(), 8 * 8 * 4);
        assert_eq!(&img[7 * 4..8 * 4], &[0, 0, 0, 255]);
        // Colour 0 is transparent.
        assert_eq!(img[3], 0);
        // 8×16 and Y-flipped: tile 0x10 (top) and 0x11 (bottom) swap halves and flip.
        let tall = Object { flags: 0x40, ..o };
        let img = object_image(&v, &tall, true, &GRAY, ColorCorrection::Off);
        assert_eq!(img.len(), 8 * 16 * 4);
        // 0x11's row 0 ends at row 7 of the image (the upper half after the swap), in OBP0
        // (0: every index shade 0); the lower half (tile 0x10, blank) is transparent.
        assert_eq!(
            &img[(7 * 8) * 4..(7 * 8) * 4 + 4],
            &[0xFF, 0xFF, 0xFF, 0xFF]
        );
        assert_eq!(img[(15 * 8) * 4 + 3], 0);
        assert_eq!(img[3], 0);
    }
}
