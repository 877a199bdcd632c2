//! The VRAM viewer window, in four tabs: the tiles of each VRAM bank in a chosen palette,
//! the BG and window tile maps (CGB attributes, the SCX/SCY viewport drawn over them with
//! wraparound, the window's place), the 40 objects of OAM with their attributes, and the
//! palettes. It draws the [`crate::emu::VideoView`] the emulation thread publishes while a
//! video viewer is open (so it follows rewinds and seeks); decoding is `vram.rs`, its state
//! `vram_state.rs`. The I/O registers window is `io_viewer.rs`.

use std::sync::Arc;

use eframe::egui;

use super::GbApp;
use super::vram::{self, PaletteChoice};
use super::vram_state::{DataChoice, Drawn, MapChoice, VramTab};
use crate::emu::{DMG_GREEN, VideoView};

/// How far a texture's pixels go: `size` in Game Boy pixels at `zoom`.
fn scaled(size: [usize; 2], zoom: f32) -> egui::Vec2 {
    egui::vec2(size[0] as f32, size[1] as f32) * zoom
}

/// Make or update a texture from RGBA bytes.
fn upload(
    ctx: &egui::Context,
    slot: &mut Option<egui::TextureHandle>,
    name: &str,
    size: [usize; 2],
    rgba: &[u8],
) {
    let image = egui::ColorImage::from_rgba_unmultiplied(size, rgba);
    match slot {
        Some(t) => t.set(image, egui::TextureOptions::NEAREST),
        None => *slot = Some(ctx.load_texture(name, image, egui::TextureOptions::NEAREST)),
    }
}

/// The Game Boy pixel under the pointer in an image drawn at `rect` with `zoom`.
fn pixel_at(resp: &egui::Response, zoom: f32) -> Option<(usize, usize)> {
    let p = resp.hover_pos()? - resp.rect.min;
    (p.x >= 0.0 && p.y >= 0.0).then(|| ((p.x / zoom) as usize, (p.y / zoom) as usize))
}

impl GbApp {
    /// The video viewers: draw the open ones (the emulation thread publishes the video
    /// memory only while one is: [`GbApp::tell_shown`]).
    pub(super) fn video_windows(&mut self, ctx: &egui::Context) {
        if self.tools.vram_ui.open {
            let mut open = true;
            egui::Window::new("VRAM viewer")
                .open(&mut open)
                .default_width(560.0)
                .default_height(660.0)
                .show(ctx, |ui| self.vram_contents(ui));
            self.tools.vram_ui.open = open;
        }
        if self.tools.vram_ui.io_open {
            self.io_window(ctx);
        }
    }

    /// The palette tiles are drawn with: the one chosen, else the background's.
    fn tile_palette(&self, v: &VideoView) -> PaletteChoice {
        let all = PaletteChoice::all(v.cgb_mode);
        match self.tools.vram_ui.palette {
            Some(p) if all.contains(&p) => p,
            _ if v.cgb_mode => PaletteChoice::CgbBg(0),
            _ => PaletteChoice::Bgp,
        }
    }

    fn vram_contents(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            for (label, tab) in [
                ("Tiles", VramTab::Tiles),
                ("Tile maps", VramTab::Maps),
                ("OAM", VramTab::Oam),
                ("Palettes", VramTab::Palettes),
            ] {
                ui.selectable_value(&mut self.tools.vram_ui.tab, tab, label);
            }
            ui.separator();
            for z in 1..=4 {
                ui.selectable_value(&mut self.tools.vram_ui.zoom, z as f32, format!("{z}x"));
            }
        });
        ui.separator();
        let Some(video) = self.view.video.clone() else {
            ui.label("Waiting for the machine...");
            return;
        };
        self.vram_textures(ui.ctx(), &video);
        egui::ScrollArea::both()
            .id_salt("vram viewer")
            .auto_shrink([false, false])
            .show(ui, |ui| match self.tools.vram_ui.tab {
                VramTab::Tiles => self.tiles_tab(ui, &video),
                VramTab::Maps => self.maps_tab(ui, &video),
                VramTab::Oam => self.oam_tab(ui, &video),
                VramTab::Palettes => self.palettes_tab(ui, &video),
            });
    }

    /// Draw the textures again when the machine or a choice changed.
    fn vram_textures(&mut self, ctx: &egui::Context, video: &Arc<VideoView>) {
        let lcdc = video.reg(0xFF40);
        let drawn = Drawn {
            video: Arc::clone(video),
            palette: self.tile_palette(video),
            map_base: self.tools.vram_ui.map.base(lcdc),
            unsigned_8000: self.tools.vram_ui.data.unsigned_8000(lcdc),
            correction: self.view.game.correction,
        };
        let t = &mut self.tools.vram_ui.textures;
        if t.drawn.as_ref() == Some(&drawn) {
            return;
        }
        let colors = vram::colors(video, drawn.palette, &DMG_GREEN, drawn.correction);
        let banks = (video.vram.len() / 0x2000).clamp(1, 2);
        if t.banks.len() != banks {
            t.banks.clear();
        }
        for b in 0..banks {
            let rgba = vram::tile_sheet(&video.vram, b, &colors);
            let mut slot = t.banks.get(b).cloned();
            upload(
                ctx,
                &mut slot,
                &format!("vram bank {b}"),
                vram::SHEET_SIZE,
                &rgba,
            );
            if let Some(tex) = slot {
                if b < t.banks.len() {
                    t.banks[b] = tex;
                } else {
                    t.banks.push(tex);
                }
            }
        }
        let map = vram::map_image(
            video,
            drawn.map_base,
            drawn.unsigned_8000,
            &DMG_GREEN,
            drawn.correction,
        );
        upload(ctx, &mut t.map, "tile map", [256, 256], &map);
        let tall = lcdc & 0x04 != 0;
        let mut strip = vec![0u8; 320 * 16 * 4];
        for o in vram::objects(&video.oam) {
            let img = vram::object_image(video, &o, tall, &DMG_GREEN, drawn.correction);
            for (row, line) in img.chunks_exact(8 * 4).enumerate() {
                let at = (row * 320 + o.index * 8) * 4;
                if let Some(dst) = strip.get_mut(at..at + 32) {
                    dst.copy_from_slice(line);
                }
            }
        }
        upload(ctx, &mut t.objects, "objects", [320, 16], &strip);
        t.drawn = Some(drawn);
    }

    fn tiles_tab(&mut self, ui: &mut egui::Ui, v: &VideoView) {
        let current = self.tile_palette(v);
        ui.horizontal_wrapped(|ui| {
            ui.label("Palette");
            for p in PaletteChoice::all(v.cgb_mode) {
                if ui.selectable_label(current == p, p.name()).clicked() {
                    self.tools.vram_ui.palette = Some(p);
                }
            }
        });
        let zoom = self.tools.vram_ui.zoom;
        let mut hovered = None;
        ui.horizontal(|ui| {
            for (b, tex) in self.tools.vram_ui.textures.banks.iter().enumerate() {
                ui.vertical(|ui| {
                    ui.label(format!("Bank {b}"));
                    let size = scaled(vram::SHEET_SIZE, zoom);
                    let r = ui.add(
                        egui::Image::new(egui::load::SizedTexture::new(tex.id(), size))
                            .sense(egui::Sense::hover()),
                    );
                    if let Some((x, y)) = pixel_at(&r, zoom) {
                        let i = (y / 8) * vram::SHEET_COLUMNS + (x / 8).min(15);
                        if i < vram::TILES_PER_BANK {
                            hovered = Some((b, i));
                            let at = egui::Rect::from_min_size(
                                r.rect.min
                                    + egui::vec2((i % 16) as f32, (i / 16) as f32) * 8.0 * zoom,
                                egui::Vec2::splat(8.0 * zoom),
                            );
                            ui.painter().rect_stroke(
                                at,
                                0.0,
                                egui::Stroke::new(1.0, egui::Color32::RED),
                                egui::StrokeKind::Outside,
                            );
                        }
                    }
                });
            }
        });
        ui.label(match hovered {
            Some((b, i)) => tile_text(b, i),
            None => "Hover a tile to see its number and address.".into(),
        });
    }

    fn maps_tab(&mut self, ui: &mut egui::Ui, v: &VideoView) {
        let lcdc = v.reg(0xFF40);
        ui.horizontal_wrapped(|ui| {
            ui.label("Map");
            for (label, m) in [
                ("BG (LCDC.3)", MapChoice::Background),
                ("Window (LCDC.6)", MapChoice::Window),
                ("9800", MapChoice::At9800),
                ("9C00", MapChoice::At9C00),
            ] {
                ui.selectable_value(&mut self.tools.vram_ui.map, m, label);
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Tile data");
            for (label, d) in [
                ("LCDC.4", DataChoice::Lcdc),
                ("8000", DataChoice::At8000),
                ("8800", DataChoice::At8800),
            ] {
                ui.selectable_value(&mut self.tools.vram_ui.data, d, label);
            }
            ui.checkbox(&mut self.tools.vram_ui.show_viewport, "Viewport");
        });
        let base = self.tools.vram_ui.map.base(lcdc);
        let unsigned = self.tools.vram_ui.data.unsigned_8000(lcdc);
        let (scx, scy) = (v.reg(0xFF43), v.reg(0xFF42));
        let (wx, wy) = (v.reg(0xFF4A + 1), v.reg(0xFF4A));
        let (win_x, win_y, win_shows) = vram::window_position(wx, wy);
        let win_on = lcdc & 0x20 != 0 && win_shows;
        ui.label(format!(
            "Map {base:04X}, tiles from {}",
            if unsigned { "8000" } else { "8800" }
        ));
        ui.label(format!("Scroll SCX {scx} SCY {scy}"));
        ui.label(format!(
            "Window at ({win_x}, {win_y}) (WX {wx} WY {wy}), {}",
            if win_on { "shown" } else { "hidden" }
        ));
        let Some(tex) = &self.tools.vram_ui.textures.map else {
            return;
        };
        let zoom = self.tools.vram_ui.zoom;
        let r = ui.add(
            egui::Image::new(egui::load::SizedTexture::new(
                tex.id(),
                scaled([256, 256], zoom),
            ))
            .sense(egui::Sense::hover()),
        );
        if self.tools.vram_ui.show_viewport {
            let painter = ui.painter().with_clip_rect(r.rect);
            let draw = |[x, y, w, h]: vram::MapRect, color: egui::Color32| {
                let rect = egui::Rect::from_min_size(
                    r.rect.min + egui::vec2(f32::from(x), f32::from(y)) * zoom,
                    egui::vec2(f32::from(w), f32::from(h)) * zoom,
                );
                painter.rect_stroke(
                    rect,
                    0.0,
                    egui::Stroke::new(2.0, color),
                    egui::StrokeKind::Inside,
                );
            };
            if self.tools.vram_ui.map == MapChoice::Window {
                // The part of the window's map the screen shows.
                if win_on {
                    let w = (gb_core::screen::GAME.width as i16 - win_x.max(0)) as u16;
                    let h = (gb_core::screen::GAME.height as i16 - win_y.max(0)) as u16;
                    draw([0, 0, w, h], egui::Color32::LIGHT_BLUE);
                }
            } else {
                for rect in vram::viewport_rects(scx, scy) {
                    draw(rect, egui::Color32::RED);
                }
                // Where the window hides the background.
                if win_on {
                    for rect in vram::window_over_bg(scx, scy, wx, wy) {
                        draw(rect, egui::Color32::LIGHT_BLUE);
                    }
                }
            }
        }
        let text = match pixel_at(&r, zoom) {
            Some((x, y)) if x < 256 && y < 256 => {
                let e = vram::map_entry(v, base, x / 8, y / 8);
                let index = vram::tile_index(e.tile, unsigned);
                let mut s = format!(
                    "({}, {}) at {:04X}: tile {:02X} (data {:04X})",
                    x / 8,
                    y / 8,
                    e.address,
                    e.tile,
                    vram::tile_address(index)
                );
                if v.cgb_mode {
                    let a = e.attrs;
                    s += &format!(", bank {}, BG {}", a.bank, a.palette);
                    if a.xflip {
                        s += ", X flip";
                    }
                    if a.yflip {
                        s += ", Y flip";
                    }
                    if a.priority {
                        s += ", over objects";
                    }
                }
                s
            }
            _ => "Hover a tile to see its map entry.".into(),
        };
        ui.label(text);
    }

    fn oam_tab(&mut self, ui: &mut egui::Ui, v: &VideoView) {
        let tall = v.reg(0xFF40) & 0x04 != 0;
        let h: u8 = if tall { 16 } else { 8 };
        ui.label(format!(
            "Objects are 8x{h} (LCDC.2); positions on the screen in brackets"
        ));
        let zoom = self.tools.vram_ui.zoom;
        let Some(tex) = &self.tools.vram_ui.textures.objects else {
            return;
        };
        for o in vram::objects(&v.oam) {
            ui.horizontal(|ui| {
                let uv = egui::Rect::from_min_size(
                    egui::pos2(o.index as f32 * 8.0 / 320.0, 0.0),
                    egui::vec2(8.0 / 320.0, f32::from(h) / 16.0),
                );
                let size = scaled([8, usize::from(h)], zoom);
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(size.x, 16.0 * zoom), egui::Sense::hover());
                let rect = egui::Rect::from_min_size(rect.min, size);
                ui.painter()
                    .rect_filled(rect, 0.0, egui::Color32::from_gray(60));
                ui.painter().image(tex.id(), rect, uv, egui::Color32::WHITE);
                let (sx, sy) = o.screen_pos();
                ui.monospace(format!(
                    "{:02} Y {:3} X {:3} tile {:02X} ({sx}, {sy}){} {}",
                    o.index,
                    o.y,
                    o.x,
                    o.tile,
                    if o.on_screen(h) { "" } else { " off-screen" },
                    o.describe(v.cgb_mode)
                ));
            });
        }
    }

    fn palettes_tab(&mut self, ui: &mut egui::Ui, v: &VideoView) {
        let correction = self.view.game.correction;
        let swatches = |ui: &mut egui::Ui, colors: [[u8; 3]; 4]| {
            for [r, g, b] in colors {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(20.0, 16.0), egui::Sense::hover());
                ui.painter()
                    .rect_filled(rect, 0.0, egui::Color32::from_rgb(r, g, b));
            }
        };
        ui.label("DMG palettes (shade of colours 0-3)");
        for (name, choice, addr) in [
            ("BGP", PaletteChoice::Bgp, 0xFF47),
            ("OBP0", PaletteChoice::Obp0, 0xFF48),
            ("OBP1", PaletteChoice::Obp1, 0xFF49),
        ] {
            ui.horizontal(|ui| {
                swatches(ui, vram::colors(v, choice, &DMG_GREEN, correction));
                let p = v.reg(addr);
                ui.monospace(format!(
                    "{name:<4} {p:02X}: {} {} {} {}",
                    vram::dmg_shade(p, 0),
                    vram::dmg_shade(p, 1),
                    vram::dmg_shade(p, 2),
                    vram::dmg_shade(p, 3)
                ));
            });
        }
        if v.model != gb_core::Model::Cgb {
            return;
        }
        ui.separator();
        ui.label(if v.cgb_mode {
            "CGB palettes (RGB555 of colours 0-3)"
        } else {
            "CGB palettes (RGB555 of colours 0-3; a DMG game: set by the boot ROM)"
        });
        ui.columns(2, |cols| {
            for (col, (kind, ram)) in cols
                .iter_mut()
                .zip([("BG", &v.bg_palettes), ("OBJ", &v.obj_palettes)])
            {
                for p in 0..8u8 {
                    col.horizontal(|ui| {
                        let choice = if kind == "BG" {
                            PaletteChoice::CgbBg(p)
                        } else {
                            PaletteChoice::CgbObj(p)
                        };
                        swatches(ui, vram::colors(v, choice, &DMG_GREEN, correction));
                        let c = [0, 1, 2, 3].map(|i| vram::cgb_color(ram, p, i));
                        ui.monospace(format!(
                            "{kind:<3} {p} {:04X} {:04X} {:04X} {:04X}",
                            c[0], c[1], c[2], c[3]
                        ));
                    });
                }
            }
        });
    }
}

/// What the tiles tab says of tile `index` of bank `bank`: its number (as 0x8000-based,
/// and as the 0x8800 method's signed number for tiles 128-383) and address.
pub fn tile_text(bank: usize, index: usize) -> String {
    let addr = vram::tile_address(index);
    let number = match index {
        0..=127 => format!("{index:02X}"),
        128..=255 => format!("{index:02X} (both methods)"),
        _ => format!("{:02X} (8800 method)", index - 256),
    };
    format!("Tile {index} at {bank}:{addr:04X}, number {number}")
}
