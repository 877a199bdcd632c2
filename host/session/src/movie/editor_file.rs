//! The TAS editor's files: its movie is a `.gbm` like any other (markers inside, in the
//! header's metadata under `markers`), and its branches are in a sidecar beside it,
//! `<movie>.branches` (they are big: each holds the whole input and a thumbnail; a movie
//! without them stays small and plays anywhere).
//!
//! Sidecar layout (`codec.rs` encodings): `GBHBRNCH`, version 2, a count, then per branch:
//! name, frame, state hash (u64), input (run-length: count of runs, then (length, buttons)
//! pairs, the buttons a varint of [`Pads`]: player 2's in bits 8-15), markers (count, then
//! frame, pinned byte, text), thumbnail (zstd of the pixels, u16 little-endian). Saved
//! atomically. Version 1 (before linked pairs) held one byte of buttons per run; it is read
//! still.
//!
//! Saving plays the roll on a fresh session at the movie's start and records it (the
//! checks and keyframes of a movie come from emulation): the other outside inputs of the
//! edited session (script loads, pokes, the start time, form actions) are fed again at their
//! frames, so the saved movie plays back as edited.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::bk2::carry::KEY_MARKERS;
use super::editor::{Branch, Editor};
use super::error::MovieError;
use super::reader::{FrameInput, Movie};
use super::recorder::Recorder;
use super::roll::Marker;
use crate::codec::{Dec, DecodeError, Enc};
use crate::data::{EventKind, Pads};
use crate::session::Session;

const MAGIC: &[u8; 8] = b"GBHBRNCH";
/// The sidecar version written (2: every player's buttons).
const VERSION: u64 = 2;
/// Most branches a sidecar may hold.
const MAX_BRANCHES: usize = 1000;

/// The sidecar of the movie at `movie`.
pub fn branches_path(movie: &Path) -> PathBuf {
    let mut p = movie.as_os_str().to_owned();
    p.push(".branches");
    PathBuf::from(p)
}

/// Markers as the `markers` metadata holds them: a [`Marker::line`] each.
pub fn encode_markers(markers: &BTreeMap<u64, Marker>) -> String {
    markers.iter().map(|(f, m)| m.line(*f)).collect()
}

/// The markers of a `markers` metadata value (bad lines are skipped).
pub fn decode_markers(s: &str) -> BTreeMap<u64, Marker> {
    s.lines().filter_map(Marker::parse_line).collect()
}

fn decode_error(part: &str, source: DecodeError) -> MovieError {
    MovieError::Decode {
        part: part.to_owned(),
        source,
    }
}

/// Encode branches as the sidecar holds them.
pub fn encode_branches(branches: &[Branch]) -> Vec<u8> {
    let mut e = Enc::default();
    e.buf.extend_from_slice(MAGIC);
    e.var(VERSION);
    e.var(branches.len() as u64);
    for b in branches {
        e.str(&b.name);
        e.var(b.frame);
        e.u64(b.hash);
        let mut runs: Vec<(u64, u16)> = Vec::new();
        for f in &b.frames {
            match runs.last_mut() {
                Some((n, v)) if *v == f.0 => *n += 1,
                _ => runs.push((1, f.0)),
            }
        }
        e.var(runs.len() as u64);
        for (n, v) in runs {
            e.var(n);
            e.var(u64::from(v));
        }
        e.var(b.markers.len() as u64);
        for (f, m) in &b.markers {
            e.var(*f);
            e.u8(u8::from(m.pinned));
            e.str(&m.text);
        }
        let px: Vec<u8> = b.thumbnail.iter().flat_map(|p| p.to_le_bytes()).collect();
        e.bytes(&zstd::bulk::compress(&px, 3).unwrap_or_default());
    }
    e.buf
}

/// Decode a sidecar.
pub fn decode_branches(bytes: &[u8]) -> Result<Vec<Branch>, MovieError> {
    let err = |e| decode_error("branches", e);
    let mut d = Dec::new(bytes);
    if d.take(8).map_err(err)? != MAGIC {
        return Err(err(d.error("not a gbhost branch file")));
    }
    let version = d.var().map_err(err)?;
    if version == 0 || version > VERSION {
        return Err(err(
            d.error(format!("version {version} is newer than this gbhost"))
        ));
    }
    let n = d.count(4).map_err(err)?.min(MAX_BRANCHES);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let name = d.str().map_err(err)?;
        let frame = d.var().map_err(err)?;
        let hash = d.u64().map_err(err)?;
        let mut frames = Vec::new();
        for _ in 0..d.count(2).map_err(err)? {
            let len = d.var().map_err(err)?;
            let v = if version == 1 {
                u16::from(d.u8().map_err(err)?)
            } else {
                u16::try_from(d.var().map_err(err)?)
                    .map_err(|_| err(d.error("buttons of more than two players")))?
            };
            if frames.len() as u64 + len > super::MAX_FRAME_LIST {
                return Err(err(d.error("a branch longer than a movie may be")));
            }
            frames.extend(std::iter::repeat_n(Pads(v), len as usize));
        }
        let mut markers = BTreeMap::new();
        for _ in 0..d.count(3).map_err(err)? {
            let f = d.var().map_err(err)?;
            let pinned = d.u8().map_err(err)? != 0;
            let text = d.str().map_err(err)?;
            markers.insert(f, Marker { text, pinned });
        }
        let packed = d.bytes().map_err(err)?;
        let px =
            zstd::bulk::decompress(packed, gb_core::screen::GAME.pixels() * 2).unwrap_or_default();
        let thumbnail = px
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        out.push(Branch {
            name,
            frame,
            frames,
            markers,
            hash,
            thumbnail,
        });
    }
    Ok(out)
}

/// An editor over `session` (at the movie's start, as `Movie::session` makes it) on the
/// input of `movie` (every player's; a pair's cable pluggings fed again at their frames),
/// with its markers and the branches of its sidecar (`path` is the movie's file).
pub fn open(movie: &Movie, path: &Path, session: &Session) -> Result<Editor, MovieError> {
    let (inputs, _) = movie.frame_inputs()?;
    let frames = inputs.iter().map(FrameInput::pads).collect();
    let mut ed = Editor::new(session, movie.header.start_frame, frames);
    ed.keep_events(movie.cable_events()?);
    if let Some(m) = movie.header.metadata.get(KEY_MARKERS) {
        for (f, marker) in decode_markers(m) {
            ed.set_marker(movie.header.start_frame + f, &marker.text, marker.pinned);
        }
    }
    ed.set_recording(false);
    let side = branches_path(path);
    if side.exists() {
        let bytes = std::fs::read(&side)
            .map_err(|e| MovieError::Workflow(format!("{}: {e}", side.display())))?;
        ed.add_branches(decode_branches(&bytes)?);
    }
    Ok(ed)
}

/// Save the editor's movie at `path` (replacing it atomically) and its branches beside it:
/// `session` is the edited session (emulated to the end first), `fresh` a new session at the
/// movie's start, which plays the roll while it is recorded.
pub fn save(
    ed: &mut Editor,
    session: &mut Session,
    fresh: &mut Session,
    path: &Path,
) -> Result<(), MovieError> {
    ed.seek_now(session, ed.end())?;
    let markers: BTreeMap<u64, Marker> = ed
        .markers()
        .map(|(f, m)| (f - ed.start(), m.clone()))
        .collect();
    let mut meta = BTreeMap::new();
    meta.insert(KEY_MARKERS.to_owned(), encode_markers(&markers));
    meta.insert("edited_by".to_owned(), "gbhost TAS editor".to_owned());
    // Recorded as a journal beside the movie, then compacted over it (atomically).
    let tmp = path.with_extension("gbm-saving");
    let idx = {
        let mut s = tmp.as_os_str().to_owned();
        s.push(".idx");
        PathBuf::from(s)
    };
    let _ = std::fs::remove_file(&tmp);
    let _ = std::fs::remove_file(&idx);
    let mut rec = Recorder::create(&tmp, fresh, Vec::new(), meta)?;
    let log = session.log();
    for f in ed.start()..ed.end() {
        for e in log
            .frame(f)
            .iter()
            .filter(|e| super::editor::fed_again(&e.kind))
        {
            let bundle = match &e.kind {
                EventKind::ScriptLoad { hash, .. } | EventKind::ScriptReload { hash, .. } => {
                    session.source(*hash)
                }
                _ => None,
            };
            fresh.replay_event(e, bundle);
        }
        fresh.set_pads(ed.input(f));
        fresh.run_frame();
        rec.after_frame(fresh)?;
    }
    let done = rec.finish()?;
    let compacted = super::container::compact(&done, path, super::container::COMPACT_LEVEL);
    let _ = std::fs::remove_file(&done);
    let _ = std::fs::remove_file(&idx);
    compacted?;
    crate::files::write_atomic(&branches_path(path), &encode_branches(ed.branches()))
        .map_err(|e| MovieError::Workflow(format!("{}: {e}", branches_path(path).display())))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gb_core::Buttons;

    fn branch(frames: Vec<Pads>) -> Branch {
        Branch {
            name: "b".into(),
            frame: 3,
            frames,
            markers: BTreeMap::new(),
            hash: 7,
            thumbnail: vec![1, 2, 3],
        }
    }

    #[test]
    fn a_branch_keeps_both_players_buttons() {
        let frames = vec![
            Pads::pair(Buttons::A, Buttons::START),
            Pads::pair(Buttons::A, Buttons::START),
            Pads::of(1, Buttons::UP),
        ];
        let back = decode_branches(&encode_branches(&[branch(frames.clone())])).unwrap();
        assert_eq!(back[0].frames, frames);
    }

    #[test]
    fn a_version_1_sidecar_still_opens() {
        // Written before linked pairs: one byte of buttons per run.
        let mut e = Enc::default();
        e.buf.extend_from_slice(MAGIC);
        e.var(1);
        e.var(1);
        e.str("old");
        e.var(2);
        e.u64(9);
        e.var(2);
        e.var(2);
        e.u8(Buttons::B.0);
        e.var(1);
        e.u8(0);
        e.var(0);
        e.bytes(&zstd::bulk::compress(&[0, 0], 3).unwrap());
        let back = decode_branches(&e.buf).expect("a version 1 sidecar");
        assert_eq!(back[0].name, "old");
        assert_eq!(
            back[0].frames,
            vec![
                Pads::from(Buttons::B),
                Pads::from(Buttons::B),
                Pads::default()
            ]
        );
    }
}
