//! What the window sees of the TAS editor: [`EditorView`] built from the editor, its big parts
//! (input, lag, markers, branches with their pictures) shared as `Arc`s and rebuilt only when
//! the editor's version changed; between changes the same view is handed out again.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::machine::Emu;
use super::types::{BranchView, EditorView, GhostView};
use gb_session::movie::ghost::Ghost;

/// A branch's picture as RGB888 (shades in the window's DMG green, or RGB555 colours).
fn thumbnail_rgb(pixels: &[u16]) -> Vec<u8> {
    let shades = pixels.iter().all(|p| *p <= 3);
    let mut out = Vec::with_capacity(pixels.len() * 3);
    for &p in pixels {
        if shades {
            out.extend_from_slice(&super::publish::DMG_GREEN[usize::from(p & 3)]);
        } else {
            let c = |v: u16| ((v & 31) * 255 / 31) as u8;
            out.extend_from_slice(&[c(p), c(p >> 5), c(p >> 10)]);
        }
    }
    out
}

impl Emu {
    /// The editor as the window sees it (rebuilt only when it changed).
    pub(crate) fn editor_view(&mut self) -> Option<EditorView> {
        let pending = self.editor_pending();
        let frame = self.session.frame();
        let held = self.session.history().frames();
        let o = self.editor.as_mut()?;
        if let Some(c) = &o.cache
            && c.version == o.version
        {
            let mut c = c.clone();
            c.held = held;
            c.pending = pending.then(|| c.target.abs_diff(frame));
            c.ghost = ghost_view(o.ghost.as_ref(), self.settings.correction);
            return Some(c);
        }
        let ed = &o.ed;
        let old_branches = o.cache.as_ref().map(|c| Arc::clone(&c.branches));
        let same_branches = old_branches.as_ref().is_some_and(|b| {
            b.len() == ed.branches().len()
                && b.iter()
                    .zip(ed.branches())
                    .all(|(v, b)| v.name == b.name && v.frame == b.frame && v.hash == b.hash)
        });
        let branches = match old_branches {
            Some(b) if same_branches => b,
            _ => Arc::new(
                ed.branches()
                    .iter()
                    .map(|b| BranchView {
                        name: b.name.clone(),
                        frame: b.frame,
                        hash: b.hash,
                        thumbnail: Arc::new(thumbnail_rgb(&b.thumbnail)),
                    })
                    .collect(),
            ),
        };
        // The input and markers are shared again unless they changed.
        let same_input = o.cache_input == o.input_version;
        let (frames, markers) = match &o.cache {
            Some(c) if same_input => (Arc::clone(&c.frames), Arc::clone(&c.markers)),
            _ => (
                Arc::new(ed.roll().frames().to_vec()),
                Arc::new(
                    ed.markers()
                        .map(|(f, m)| (f, m.text.clone()))
                        .collect::<BTreeMap<u64, String>>(),
                ),
            ),
        };
        let (can_undo, can_redo) = ed.roll().can_undo_redo();
        let view = EditorView {
            version: o.version,
            path: o.path.clone(),
            start: ed.start(),
            frames,
            players: self.session.machine().players(),
            lag: Arc::new({
                let known = ed.lag_known();
                let n = ed.valid_end().min(ed.end()).saturating_sub(ed.start());
                known[..usize::try_from(n).unwrap_or(usize::MAX).min(known.len())].to_vec()
            }),
            lag_count: ed.lag_count(),
            markers,
            valid_end: ed.valid_end(),
            target: ed.target(),
            held,
            pending: pending.then(|| ed.target().abs_diff(frame)),
            can_undo,
            can_redo,
            recording: ed.recording(),
            branches,
            ghost: ghost_view(o.ghost.as_ref(), self.settings.correction),
        };
        o.cache_input = o.input_version;
        o.cache = Some(view.clone());
        Some(view)
    }
}

/// What the window shows of the ghost.
fn ghost_view(ghost: Option<&Ghost>, correction: gb_core::ColorCorrection) -> Option<GhostView> {
    let g = ghost?;
    Some(GhostView {
        name: g.name().to_owned(),
        picture: Arc::new(
            g.session()
                .picture()
                .to_rgb888_with(&crate::emu::publish::DMG_GREEN, correction),
        ),
        divergence: g
            .divergence()
            .map(|d| (d.frame.saturating_sub(1), d.ram, d.screen)),
        compared_to: g.compared_to(),
    })
}
