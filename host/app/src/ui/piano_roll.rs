//! The piano roll's rows: one row per frame (its number, a lag mark, the eight buttons
//! `U D L R S s B A` of each player — a linked pair's player 2 in a second group, in blue —
//! the marker's text), painted for the rows asked only (the window passes the visible ones,
//! `ScrollArea::show_rows`), over the published [`EditorView`]: the greenzone tinted, the
//! selection, the playback cursor and re-emulation's target outlined. Each frame number and
//! button cell is a widget labelled `Frame N` / `A N` (`P1 A N` / `P2 A N` on a pair), whose
//! responses go back to the caller (`roll_mouse.rs`). Also used by `gbhost bench
//! --editor-paint`.

use std::ops::RangeInclusive;

use eframe::egui;
use egui::{Color32, Pos2, Rect, Sense, Vec2};
use gb_core::Buttons;
use gb_session::data::Pads;

use crate::emu::EditorView;

/// Height of a row, in points.
pub const ROW_HEIGHT: f32 = 18.0;
/// Width of the frame number column.
const FRAME_W: f32 = 64.0;
/// Width of the lag column.
const LAG_W: f32 = 18.0;
/// Width of a button column.
const BUTTON_W: f32 = 22.0;
/// Space between two players' groups of columns.
const PLAYER_GAP: f32 = 8.0;

/// Where player `p`'s button `i` (of [`Buttons::NAMES`]) starts, from the lag column's
/// right edge.
fn column_x(p: usize, i: usize) -> f32 {
    (p * 8 + i) as f32 * BUTTON_W + p as f32 * PLAYER_GAP
}

/// Width of every player's columns.
fn buttons_width(players: usize) -> f32 {
    column_x(players.max(1), 0) - PLAYER_GAP
}

/// The colour of a pressed cell: player 1's amber, player 2's blue.
fn pressed_fill(p: usize) -> Color32 {
    if p == 0 {
        Color32::from_rgb(200, 170, 60)
    } else {
        Color32::from_rgb(90, 160, 230)
    }
}

/// Row colours: greenzone or not, with the selection on top.
fn row_fill(green: bool, selected: bool, odd: bool) -> Color32 {
    let base = match (green, odd) {
        (true, false) => Color32::from_rgb(28, 58, 30),
        (true, true) => Color32::from_rgb(32, 64, 34),
        (false, false) => Color32::from_gray(30),
        (false, true) => Color32::from_gray(36),
    };
    if selected {
        base.gamma_multiply(1.0)
            .lerp_to_gamma(Color32::from_rgb(70, 90, 150), 0.5)
    } else {
        base
    }
}

/// Draw the roll's rows `rows` (indices from the roll's start) into `ui`; returns the screen y
/// of row 0 (rows are `ROW_HEIGHT` apart) to map the pointer to frames.
pub fn draw_rows(
    ui: &mut egui::Ui,
    ed: &EditorView,
    cursor: u64,
    selection: Option<RangeInclusive<u64>>,
    preview: Option<(Pads, RangeInclusive<u64>, bool)>,
    rows: std::ops::Range<usize>,
    mut on_cell: impl FnMut(u64, Option<Pads>, &egui::Response),
) -> f32 {
    let mut origin = ui.cursor().top() - rows.start as f32 * ROW_HEIGHT;
    let players = ed.players.max(1);
    let width = ui
        .available_width()
        .max(FRAME_W + LAG_W + buttons_width(players) + 80.0);
    let font = egui::FontId::monospace(12.0);
    let dim = Color32::from_gray(90);
    for (n, i) in rows.clone().enumerate() {
        let f = ed.start + i as u64;
        let (rect, _) = ui.allocate_exact_size(Vec2::new(width, ROW_HEIGHT), Sense::hover());
        if n == 0 {
            origin = rect.top() - i as f32 * ROW_HEIGHT;
        }
        if !ui.is_rect_visible(rect) {
            continue;
        }
        let painter = ui.painter_at(rect);
        let selected = selection.as_ref().is_some_and(|s| s.contains(&f));
        painter.rect_filled(rect, 0.0, row_fill(ed.is_green(f), selected, i % 2 == 1));
        // Frame number: click to seek, drag to select.
        let num = Rect::from_min_size(rect.min, Vec2::new(FRAME_W, ROW_HEIGHT));
        let r = ui.interact(
            num,
            egui::Id::unique("piano roll").with(("frame", f)),
            Sense::click_and_drag(),
        );
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, format!("Frame {f}")));
        on_cell(f, None, &r);
        let text_color = if f == cursor {
            Color32::WHITE
        } else {
            Color32::from_gray(190)
        };
        painter.text(
            num.left_center() + Vec2::new(4.0, 0.0),
            egui::Align2::LEFT_CENTER,
            f.to_string(),
            font.clone(),
            text_color,
        );
        // Lag mark.
        let lag = Rect::from_min_size(num.right_top(), Vec2::new(LAG_W, ROW_HEIGHT));
        if ed.lagged(f) == Some(true) {
            painter.circle_filled(lag.center(), 3.5, Color32::from_rgb(220, 80, 60));
        }
        // The eight buttons of each player.
        let input = ed.input(f);
        for p in 0..players {
            for (c, ((button, name), letter)) in
                Buttons::NAMES.iter().zip(Buttons::MNEMONICS).enumerate()
            {
                let mask = Pads::of(p, *button);
                let cell = Rect::from_min_size(
                    Pos2::new(lag.right() + column_x(p, c), rect.top()),
                    Vec2::new(BUTTON_W, ROW_HEIGHT),
                );
                let mut pressed = input.contains(mask);
                if let Some((m, span, on)) = &preview
                    && *m == mask
                    && span.contains(&f)
                {
                    pressed = *on;
                }
                let r = ui.interact(
                    cell,
                    egui::Id::unique("piano roll").with(("cell", f, p * 8 + c)),
                    Sense::click_and_drag(),
                );
                r.widget_info(|| {
                    let label = if players > 1 {
                        format!("P{} {name} {f}", p + 1)
                    } else {
                        format!("{name} {f}")
                    };
                    egui::WidgetInfo::labeled(egui::Role::Button, true, label)
                });
                on_cell(f, Some(mask), &r);
                if pressed {
                    painter.rect_filled(cell.shrink(2.0), 2.0, pressed_fill(p));
                }
                painter.text(
                    cell.center(),
                    egui::Align2::CENTER_CENTER,
                    char::from(letter),
                    font.clone(),
                    if pressed { Color32::BLACK } else { dim },
                );
            }
        }
        // The frame whose run made the ghost and the edited machine differ.
        if ed
            .ghost
            .as_ref()
            .is_some_and(|g| g.divergence.is_some_and(|(d, _, _)| d == f))
        {
            painter.rect_stroke(
                rect.shrink(1.0),
                0.0,
                egui::Stroke::new(1.5, Color32::from_rgb(230, 70, 70)),
                egui::StrokeKind::Inside,
            );
            painter.text(
                rect.right_center() - Vec2::new(6.0, 0.0),
                egui::Align2::RIGHT_CENTER,
                "≠ ghost",
                font.clone(),
                Color32::from_rgb(230, 90, 90),
            );
        }
        // Marker text.
        if let Some(text) = ed.markers.get(&f) {
            let at = Pos2::new(lag.right() + buttons_width(players) + 6.0, rect.center().y);
            painter.text(
                at,
                egui::Align2::LEFT_CENTER,
                if text.is_empty() { "◆" } else { text },
                font.clone(),
                Color32::from_rgb(120, 200, 255),
            );
        }
        // The playback cursor, and where re-emulation heads.
        if f == cursor {
            painter.rect_stroke(
                rect.shrink(0.5),
                0.0,
                egui::Stroke::new(1.5, Color32::from_rgb(90, 160, 255)),
                egui::StrokeKind::Inside,
            );
        } else if f == ed.target && ed.pending.is_some() {
            painter.rect_stroke(
                rect.shrink(0.5),
                0.0,
                egui::Stroke::new(1.5, Color32::from_rgb(255, 160, 40)),
                egui::StrokeKind::Inside,
            );
        }
    }
    origin
}

/// The column header (`players`: the groups of button columns, named P1 and P2 on a pair).
pub(super) fn header(ui: &mut egui::Ui, players: usize) {
    let players = players.max(1);
    // A pair's header has a line above the letters naming each group.
    let names_h = if players > 1 { 12.0 } else { 0.0 };
    let (whole, _) = ui.allocate_exact_size(
        Vec2::new(ui.available_width(), ROW_HEIGHT + names_h),
        Sense::hover(),
    );
    let p = ui.painter_at(whole);
    let rect = Rect::from_min_max(whole.min + Vec2::new(0.0, names_h), whole.max);
    let font = egui::FontId::monospace(12.0);
    let c = Color32::from_gray(160);
    p.text(
        rect.left_center() + Vec2::new(4.0, 0.0),
        egui::Align2::LEFT_CENTER,
        "frame",
        font.clone(),
        c,
    );
    let x0 = rect.left() + FRAME_W;
    p.text(
        Pos2::new(x0 + LAG_W / 2.0, rect.center().y),
        egui::Align2::CENTER_CENTER,
        "lag",
        egui::FontId::monospace(9.0),
        c,
    );
    for player in 0..players {
        // A pair's groups are told apart by colour (the pressed cells' colour) and name.
        let colour = if players > 1 { pressed_fill(player) } else { c };
        for (i, l) in Buttons::MNEMONICS.into_iter().enumerate() {
            let x = x0 + LAG_W + column_x(player, i) + 0.5 * BUTTON_W;
            p.text(
                Pos2::new(x, rect.center().y),
                egui::Align2::CENTER_CENTER,
                char::from(l),
                font.clone(),
                colour,
            );
        }
        if players > 1 {
            let mid = x0 + LAG_W + column_x(player, 0) + 4.0 * BUTTON_W;
            p.text(
                Pos2::new(mid, whole.top() + names_h / 2.0 + 1.0),
                egui::Align2::CENTER_CENTER,
                format!("player {}", player + 1),
                egui::FontId::proportional(10.0),
                colour,
            );
        }
    }
    p.text(
        Pos2::new(x0 + LAG_W + buttons_width(players) + 6.0, rect.center().y),
        egui::Align2::LEFT_CENTER,
        "marker",
        font,
        c,
    );
}
