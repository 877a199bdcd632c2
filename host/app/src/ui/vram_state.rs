//! What the video viewers keep between frames: the VRAM viewer's tab and choices (palette,
//! zoom, map, tile data) and its textures, and whether the I/O registers window is open
//! ([`VramUi`]). The windows themselves are `vram_viewer.rs` and `io_viewer.rs`.

use std::sync::Arc;

use eframe::egui;

use super::vram::PaletteChoice;
use crate::emu::VideoView;

/// The VRAM viewer's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum VramTab {
    #[default]
    Tiles,
    Maps,
    Oam,
    Palettes,
}

/// Which tile map the map tab shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum MapChoice {
    /// The background's, as LCDC.3 says.
    #[default]
    Background,
    /// The window's, as LCDC.6 says.
    Window,
    /// The one at 0x9800.
    At9800,
    /// The one at 0x9C00.
    At9C00,
}

impl MapChoice {
    /// The map's address for this LCDC.
    pub(super) fn base(self, lcdc: u8) -> u16 {
        let pick = |bit: u8| if lcdc & bit != 0 { 0x9C00 } else { 0x9800 };
        match self {
            MapChoice::Background => pick(0x08),
            MapChoice::Window => pick(0x40),
            MapChoice::At9800 => 0x9800,
            MapChoice::At9C00 => 0x9C00,
        }
    }
}

/// How the map tab reads tile numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum DataChoice {
    /// As LCDC.4 says.
    #[default]
    Lcdc,
    /// Unsigned from 0x8000.
    At8000,
    /// Signed from 0x9000 (the "8800 method").
    At8800,
}

impl DataChoice {
    /// Whether tile numbers are unsigned from 0x8000, for this LCDC.
    pub(super) fn unsigned_8000(self, lcdc: u8) -> bool {
        match self {
            DataChoice::Lcdc => lcdc & 0x10 != 0,
            DataChoice::At8000 => true,
            DataChoice::At8800 => false,
        }
    }
}

/// What the textures were drawn from: the machine's video state and the choices.
#[derive(Clone)]
pub(super) struct Drawn {
    pub(super) video: Arc<VideoView>,
    pub(super) palette: PaletteChoice,
    pub(super) map_base: u16,
    pub(super) unsigned_8000: bool,
    pub(super) correction: gb_core::ColorCorrection,
}

impl PartialEq for Drawn {
    /// The same pictures: the same choices, video memory, palettes and the registers the
    /// pictures depend on (LCDC, BGP, OBP0, OBP1), whatever the frame, the CPU or the other
    /// registers (DIV, LY… change every frame).
    fn eq(&self, o: &Drawn) -> bool {
        let (a, b) = (&*self.video, &*o.video);
        let regs = |v: &VideoView| [0xFF40, 0xFF47, 0xFF48, 0xFF49].map(|r| v.reg(r));
        self.palette == o.palette
            && self.map_base == o.map_base
            && self.unsigned_8000 == o.unsigned_8000
            && self.correction == o.correction
            && a.cgb_mode == b.cgb_mode
            && regs(a) == regs(b)
            && a.bg_palettes == b.bg_palettes
            && a.obj_palettes == b.obj_palettes
            && a.oam == b.oam
            && a.vram == b.vram
    }
}

/// The viewers' textures.
#[derive(Default)]
pub(super) struct VramTextures {
    /// The tile sheet of each VRAM bank.
    pub(super) banks: Vec<egui::TextureHandle>,
    /// The chosen tile map, 256×256.
    pub(super) map: Option<egui::TextureHandle>,
    /// The 40 objects side by side, 8×16 each.
    pub(super) objects: Option<egui::TextureHandle>,
    /// What they show.
    pub(super) drawn: Option<Drawn>,
}

/// The video viewers' state.
pub(super) struct VramUi {
    /// The VRAM viewer is open.
    pub(super) open: bool,
    /// The I/O registers window is open.
    pub(super) io_open: bool,
    pub(super) tab: VramTab,
    /// The palette tiles are drawn with (`None`: the background's, BGP or CGB BG 0).
    pub(super) palette: Option<PaletteChoice>,
    /// Screen pixels per Game Boy pixel.
    pub(super) zoom: f32,
    pub(super) map: MapChoice,
    pub(super) data: DataChoice,
    /// Draw the SCX/SCY viewport and the window's position over the map.
    pub(super) show_viewport: bool,
    pub(super) textures: VramTextures,
}

impl Default for VramUi {
    fn default() -> VramUi {
        VramUi {
            open: false,
            io_open: false,
            tab: VramTab::Tiles,
            palette: None,
            zoom: 2.0,
            map: MapChoice::Background,
            data: DataChoice::Lcdc,
            show_viewport: true,
            textures: VramTextures::default(),
        }
    }
}
