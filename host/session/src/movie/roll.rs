//! [`Roll`]: a movie's input as the TAS editor edits it — every player's buttons of every
//! frame ([`Pads`]), the markers, and the undo/redo history of every edit. Pure data:
//! nothing here emulates (the [`Editor`](super::editor::Editor) does, over a session).
//!
//! Frames are counted from the roll's first frame (index 0). Every edit reports the first
//! frame whose input it changed, so the editor invalidates only the frames after it.
//!
//! **Markers** are bound to their input: an insert before a marker moves it down, a delete
//! moves it up (a marker inside a deleted range lands on the range's start). A *pinned* marker
//! stays on its frame number.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::data::Pads;

/// Most edits kept for undo.
pub const MAX_UNDO: usize = 1000;

/// A marker: a note on a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    /// The text.
    pub text: String,
    /// Stays on its frame number when frames are inserted or deleted before it.
    pub pinned: bool,
}

impl Marker {
    /// Its line in the `markers` metadata: `frame<TAB>P|-<TAB>text` (the frame from the
    /// movie's start; `P` pinned; tabs and line breaks in the text become spaces).
    pub fn line(&self, frame: u64) -> String {
        let text = self.text.replace(['\t', '\r', '\n'], " ");
        format!("{frame}\t{}\t{text}\n", if self.pinned { "P" } else { "-" })
    }

    /// A marker and its frame from a [`Marker::line`] (without its line break); `None` when
    /// the line is not one.
    pub fn parse_line(line: &str) -> Option<(u64, Marker)> {
        let mut c = line.splitn(3, '\t');
        let frame = c.next()?.parse().ok()?;
        let pinned = c.next()? == "P";
        let text = c.next().unwrap_or("").to_owned();
        Some((frame, Marker { text, pinned }))
    }
}

/// One undoable change: the frames it replaced and what replaced them, and the markers
/// before and after when it moved them.
#[derive(Clone, Debug)]
struct Change {
    /// Where it starts.
    at: usize,
    /// The frames that were there.
    old: Vec<Pads>,
    /// The frames put there.
    new: Vec<Pads>,
    /// The markers before and after, when the change moved them (an insert, a delete, a
    /// branch loaded); a change that moves none leaves later marker edits alone on undo.
    markers: Option<(BTreeMap<u64, Marker>, BTreeMap<u64, Marker>)>,
}

/// A movie's input, its markers and the edit history.
#[derive(Clone, Debug, Default)]
pub struct Roll {
    frames: Vec<Pads>,
    markers: BTreeMap<u64, Marker>,
    undo: Vec<Change>,
    redo: Vec<Change>,
}

impl Roll {
    /// A roll holding `frames`.
    pub fn new(frames: Vec<Pads>) -> Roll {
        Roll {
            frames,
            ..Roll::default()
        }
    }

    /// The number of frames.
    pub fn len(&self) -> u64 {
        self.frames.len() as u64
    }

    /// Whether there are no frames.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The buttons of frame `f` (none past the end).
    pub fn get(&self, f: u64) -> Pads {
        usize::try_from(f)
            .ok()
            .and_then(|i| self.frames.get(i))
            .copied()
            .unwrap_or_default()
    }

    /// Every frame's buttons.
    pub fn frames(&self) -> &[Pads] {
        &self.frames
    }

    /// The frames of `range` (clipped to the roll), for copy.
    pub fn copy(&self, range: Range<u64>) -> Vec<Pads> {
        let (a, b) = self.clip(range);
        self.frames[a..b].to_vec()
    }

    fn clip(&self, range: Range<u64>) -> (usize, usize) {
        let n = self.frames.len();
        let a = usize::try_from(range.start).unwrap_or(n).min(n);
        let b = usize::try_from(range.end).unwrap_or(n).clamp(a, n);
        (a, b)
    }

    /// Replace `old_len` frames at `at` by `new`, moving markers, as one undoable change.
    /// Returns the first frame whose input changed, if any did.
    fn splice(&mut self, at: usize, old_len: usize, new: Vec<Pads>) -> Option<u64> {
        let at = at.min(self.frames.len());
        let old_len = old_len.min(self.frames.len() - at);
        let old: Vec<Pads> = self.frames[at..at + old_len].to_vec();
        if old == new || (self.frames.len() - old_len + new.len()) as u64 > super::MAX_FRAME_LIST {
            return None;
        }
        let shift = new.len() as i64 - old_len as i64;
        let before = (shift != 0).then(|| self.markers.clone());
        if shift != 0 {
            let (at64, old_end, new_len) = (at as u64, (at + old_len) as u64, new.len() as u64);
            let mut moved = BTreeMap::new();
            for (f, m) in std::mem::take(&mut self.markers) {
                let f = if m.pinned || f < at64 || (f < old_end && f - at64 < new_len) {
                    f
                } else if f >= old_end {
                    f.saturating_add_signed(shift)
                } else {
                    // In the part that was deleted: onto the change's end.
                    at64 + new_len
                };
                moved.entry(f).or_insert(m);
            }
            self.markers = moved;
        }
        self.frames.splice(at..at + old_len, new.iter().copied());
        let first = old
            .iter()
            .zip(&new)
            .position(|(a, b)| a != b)
            .unwrap_or(old.len().min(new.len()));
        self.undo.push(Change {
            at,
            old,
            new,
            markers: before.map(|b| (b, self.markers.clone())),
        });
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
        Some((at + first) as u64)
    }

    /// Set frame `f`'s buttons (the roll grows with empty frames to reach it).
    pub fn set(&mut self, f: u64, b: Pads) -> Option<u64> {
        if f >= super::MAX_FRAME_LIST {
            return None;
        }
        let i = usize::try_from(f).ok()?;
        if i >= self.frames.len() {
            if b == Pads::default() {
                return None;
            }
            let mut new = vec![Pads::default(); i - self.frames.len()];
            new.push(b);
            let len = self.frames.len();
            return self.splice(len, 0, new);
        }
        self.splice(i, 1, vec![b])
    }

    /// Press (`on`) or release the buttons of `mask` over `range` (painting), growing the roll
    /// to reach it.
    pub fn paint(&mut self, range: Range<u64>, mask: Pads, on: bool) -> Option<u64> {
        self.pattern(range, mask, on, 1, 0)
    }

    /// Autofire over `range`: `mask` pressed for `on` frames, released for `off`, repeating
    /// (`on_first` false starts released). `off` 0 holds it.
    pub fn pattern(
        &mut self,
        range: Range<u64>,
        mask: Pads,
        on_first: bool,
        on: u64,
        off: u64,
    ) -> Option<u64> {
        if range.end > super::MAX_FRAME_LIST {
            return None;
        }
        let start = usize::try_from(range.start).ok()?;
        let end = usize::try_from(range.end).ok()?.max(start);
        let period = (on + off).max(1);
        let new: Vec<Pads> = (start..end)
            .map(|i| {
                let k = (i - start) as u64 % period;
                let pressed = (k < on) == on_first || off == 0 && on_first;
                let b = self.get(i as u64).0;
                Pads(if pressed { b | mask.0 } else { b & !mask.0 })
            })
            .collect();
        let have = self.frames.len().saturating_sub(start).min(end - start);
        if start > self.frames.len() {
            let mut pad = vec![Pads::default(); start - self.frames.len()];
            pad.extend(new);
            let len = self.frames.len();
            return self.splice(len, 0, pad);
        }
        self.splice(start, have, new)
    }

    /// Insert `frames` before frame `at` (at the end when past it).
    pub fn insert(&mut self, at: u64, frames: Vec<Pads>) -> Option<u64> {
        let at = usize::try_from(at)
            .unwrap_or(usize::MAX)
            .min(self.frames.len());
        self.splice(at, 0, frames)
    }

    /// Delete the frames of `range`.
    pub fn delete(&mut self, range: Range<u64>) -> Option<u64> {
        let (a, b) = self.clip(range);
        self.splice(a, b - a, Vec::new())
    }

    /// Insert a copy of `range` after it.
    pub fn clone_range(&mut self, range: Range<u64>) -> Option<u64> {
        let (a, b) = self.clip(range);
        let copy = self.frames[a..b].to_vec();
        self.splice(b, 0, copy)
    }

    /// Release every button over `range`.
    pub fn clear(&mut self, range: Range<u64>) -> Option<u64> {
        let (a, b) = self.clip(range);
        self.splice(a, b - a, vec![Pads::default(); b - a])
    }

    /// Paste `frames` at `at`: over the frames there, or inserted before them.
    pub fn paste(&mut self, at: u64, frames: Vec<Pads>, insert: bool) -> Option<u64> {
        let i = usize::try_from(at)
            .unwrap_or(usize::MAX)
            .min(self.frames.len());
        if insert {
            return self.splice(i, 0, frames);
        }
        let over = frames.len().min(self.frames.len() - i);
        self.splice(i, over, frames)
    }

    /// Set frame `i` to `b`, appending empty frames before it if needed: recording at the
    /// end, not an undoable edit.
    pub fn extend_to(&mut self, i: u64, b: Pads) {
        let Ok(i) = usize::try_from(i) else { return };
        if i < self.frames.len() {
            self.frames[i] = b;
        } else if i - self.frames.len() <= super::MAX_FRAME_LIST as usize {
            self.frames.resize(i, Pads::default());
            self.frames.push(b);
        }
    }

    /// Undo the last edit; returns the first frame it changed.
    pub fn undo(&mut self) -> Option<u64> {
        let c = self.undo.pop()?;
        self.frames
            .splice(c.at..c.at + c.new.len(), c.old.iter().copied());
        if let Some((before, _)) = &c.markers {
            self.markers = before.clone();
        }
        let at = c.at as u64;
        self.redo.push(c);
        Some(at)
    }

    /// Redo the last undone edit; returns the first frame it changed.
    pub fn redo(&mut self) -> Option<u64> {
        let c = self.redo.pop()?;
        self.frames
            .splice(c.at..c.at + c.old.len(), c.new.iter().copied());
        if let Some((_, after)) = &c.markers {
            self.markers = after.clone();
        }
        let at = c.at as u64;
        self.undo.push(c);
        Some(at)
    }

    /// Whether there is an edit to undo, and one to redo.
    pub fn can_undo_redo(&self) -> (bool, bool) {
        (!self.undo.is_empty(), !self.redo.is_empty())
    }

    /// The markers, by frame.
    pub fn markers(&self) -> &BTreeMap<u64, Marker> {
        &self.markers
    }

    /// Put a marker on frame `f` (replacing one there).
    pub fn set_marker(&mut self, f: u64, text: &str, pinned: bool) {
        self.markers.insert(
            f,
            Marker {
                text: text.to_owned(),
                pinned,
            },
        );
    }

    /// Remove the marker of frame `f`; whether there was one.
    pub fn remove_marker(&mut self, f: u64) -> bool {
        self.markers.remove(&f).is_some()
    }

    /// The first marker after frame `f`.
    pub fn next_marker(&self, f: u64) -> Option<u64> {
        self.markers.range(f + 1..).next().map(|(k, _)| *k)
    }

    /// Replace the whole input and markers (a branch loaded) as one undoable change.
    pub fn replace_all(
        &mut self,
        frames: Vec<Pads>,
        markers: BTreeMap<u64, Marker>,
    ) -> Option<u64> {
        let before = self.markers.clone();
        let len = self.frames.len();
        let first = self.splice(0, len, frames);
        if let Some(c) = self.undo.last_mut()
            && first.is_some()
        {
            c.markers = Some((before, markers.clone()));
        }
        self.markers = markers;
        first.or(Some(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gb_core::Buttons;

    const A: Pads = Pads(Buttons::A.0 as u16);
    const B: Pads = Pads(Buttons::B.0 as u16);
    const START: Pads = Pads(Buttons::START.0 as u16);

    fn roll(n: usize) -> Roll {
        Roll::new((0..n).map(|i| Pads(i as u16)).collect())
    }

    #[test]
    fn each_players_columns_are_edited_apart() {
        let mut r = Roll::new(vec![Pads::of(0, Buttons::A); 6]);
        let p2_a = Pads::of(1, Buttons::A);
        assert_eq!(r.paint(2..4, p2_a, true), Some(2));
        assert_eq!(r.get(2), Pads::pair(Buttons::A, Buttons::A));
        assert_eq!(
            r.get(4),
            Pads::of(0, Buttons::A),
            "outside the range: untouched"
        );
        // Releasing player 2's A leaves player 1's held.
        assert_eq!(r.paint(0..6, p2_a, false), Some(2));
        assert!((0..6).all(|f| r.get(f) == Pads::of(0, Buttons::A)));
        // Autofire on player 2 alone.
        r.pattern(0..4, Pads::of(1, Buttons::B), true, 1, 1);
        let p2: Vec<Buttons> = (0..4).map(|f| r.get(f).player(1)).collect();
        assert_eq!(
            p2,
            [
                Buttons::B,
                Buttons::default(),
                Buttons::B,
                Buttons::default()
            ]
        );
        assert!((0..6).all(|f| r.get(f).player(0) == Buttons::A));
    }

    #[test]
    fn frames_past_a_movie_s_limit_are_refused_not_allocated() {
        let mut r = Roll::new(vec![Pads::default(); 4]);
        assert_eq!(r.set(u64::MAX / 2, A), None);
        assert_eq!(r.paint(1 << 40..(1 << 40) + 5, A, true), None);
        assert_eq!(r.insert(u64::MAX, vec![A]), Some(4));
        assert_eq!(r.len(), 5);
    }

    #[test]
    fn painting_reports_the_first_frame_changed_and_undoes() {
        let mut r = Roll::new(vec![Pads::default(); 10]);
        assert_eq!(r.paint(3..6, A, true), Some(3));
        assert_eq!(r.get(4), A);
        assert_eq!(r.paint(3..6, A, true), None, "no change, no edit");
        assert_eq!(r.paint(0..10, A, false), Some(3));
        assert_eq!(r.undo(), Some(0));
        assert_eq!(r.get(5), A);
        assert_eq!(r.undo(), Some(3));
        assert_eq!(r.get(5), Pads::default());
        assert_eq!(r.redo(), Some(3));
        assert_eq!(r.get(3), A);
    }

    #[test]
    fn undoing_a_paint_keeps_a_marker_set_after_it() {
        let mut r = Roll::new(vec![Pads::default(); 10]);
        r.paint(3..6, A, true);
        r.set_marker(8, "boss", false);
        assert_eq!(r.undo(), Some(3));
        assert!(r.markers().contains_key(&8), "a paint moves no marker");
        // An insert moves markers: its undo puts them back where they were.
        r.insert(2, vec![B; 2]);
        assert!(r.markers().contains_key(&10));
        r.undo();
        assert_eq!(r.markers().keys().copied().collect::<Vec<_>>(), [8]);
    }

    #[test]
    fn autofire_alternates() {
        let mut r = Roll::new(vec![Pads::default(); 8]);
        r.pattern(0..8, B, true, 1, 1);
        let b: Vec<bool> = (0..8).map(|f| r.get(f).contains(B)).collect();
        assert_eq!(b, [true, false, true, false, true, false, true, false]);
        r.pattern(0..8, A, true, 2, 2);
        let a: Vec<bool> = (0..8).map(|f| r.get(f).contains(A)).collect();
        assert_eq!(a, [true, true, false, false, true, true, false, false]);
    }

    #[test]
    fn markers_move_with_inserts_and_deletes_unless_pinned() {
        let mut r = roll(20);
        r.set_marker(10, "boss", false);
        r.set_marker(15, "pinned", true);
        assert_eq!(r.insert(5, vec![A; 3]), Some(5));
        assert!(r.markers().contains_key(&13));
        assert!(r.markers().contains_key(&15));
        assert_eq!(r.get(13), Pads(10), "the marker's input moved with it");
        r.delete(0..4);
        assert!(r.markers().contains_key(&9));
        r.delete(8..12);
        assert!(
            r.markers().contains_key(&8),
            "inside a deleted range: onto its start"
        );
        r.undo();
        r.undo();
        r.undo();
        assert!(r.markers().contains_key(&10));
        assert_eq!(r.len(), 20);
    }

    #[test]
    fn clone_paste_clear_and_growth() {
        let mut r = roll(4);
        r.clone_range(1..3);
        assert_eq!(r.frames(), &[0, 1, 2, 1, 2, 3].map(Pads));
        r.paste(0, vec![Pads(9)], false);
        assert_eq!(r.get(0), Pads(9));
        r.paste(0, vec![Pads(7)], true);
        assert_eq!(r.len(), 7);
        r.clear(0..2);
        assert_eq!(r.copy(0..3), vec![Pads(0), Pads(0), Pads(1)]);
        assert_eq!(r.set(10, START), Some(7));
        assert_eq!(r.len(), 11);
        assert_eq!(r.get(10), START);
        assert_eq!(r.get(99), Pads::default());
    }
}
