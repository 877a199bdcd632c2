//! Playback: [`Feeder`] hands a movie's events to a session frame by frame and checks the
//! state at every chunk start (the desync detector); [`play`] runs a whole movie headless.

use super::error::MovieError;
use super::format::{Chunk, FLAG_KEYFRAME, Start, is_state_keyframe, state_hash};
use super::reader::Movie;
use crate::data::{Event, EventKind};
use crate::session::{Roms, Session, SessionConfig};
use crate::state::StateFile;
use crate::state::file::LinkMeta;

/// Where playback stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feed {
    /// The frame's events were handed to the session.
    Playing,
    /// The movie has no more frames.
    Ended,
}

/// A state check that failed during playback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Desync {
    /// The first frame whose state differs from the recording (checked at every chunk start;
    /// the previous check, [`super::CHUNK_FRAMES`] earlier, matched).
    pub frame: u64,
    /// The recorded hash.
    pub expected: u64,
    /// The replayed one.
    pub got: u64,
}

/// Plays a movie into a session: before each frame, hands it the movie's events for that
/// frame and checks the state at every chunk start (the desync detector).
pub struct Feeder {
    cached: Option<(usize, Chunk)>,
    /// The first failed check, if any.
    pub desync: Option<Desync>,
    /// Checks made.
    pub checks: u64,
    /// The frame [`Movie::session_at`] started playing from (a keyframe's, or the movie's
    /// start).
    pub start: u64,
}

impl Default for Feeder {
    fn default() -> Self {
        Feeder::new()
    }
}

impl Feeder {
    /// A feeder with nothing read yet.
    pub fn new() -> Feeder {
        Feeder {
            start: 0,
            cached: None,
            desync: None,
            checks: 0,
        }
    }

    /// Before `session.run_frame()`: log the movie's events of the next frame (and check the
    /// state if a chunk starts there).
    pub fn feed(&mut self, movie: &Movie, session: &mut Session) -> Result<Feed, MovieError> {
        let f = session.frame();
        let Some(i) = movie.find(f) else {
            return Ok(Feed::Ended);
        };
        if self.cached.as_ref().is_none_or(|(k, _)| *k != i) {
            self.cached = Some((i, movie.chunk(i)?));
        }
        let Some((_, chunk)) = &self.cached else {
            return Ok(Feed::Ended);
        };
        // A movie of another core is not checked: its states are the other core's.
        if movie.chunks()[i].meta.start_frame == f && movie.other_core().is_none() {
            self.checks += 1;
            let got = state_hash(session);
            if got != chunk.state_hash && self.desync.is_none() {
                self.desync = Some(Desync {
                    frame: f,
                    expected: chunk.state_hash,
                    got,
                });
            }
        }
        let start = chunk.events.partition_point(|e| e.frame < f);
        for e in chunk.events[start..].iter().take_while(|e| e.frame == f) {
            let bundle = match e.kind {
                EventKind::ScriptLoad { hash, .. } | EventKind::ScriptReload { hash, .. } => chunk
                    .sources
                    .iter()
                    .find(|(h, _)| *h == hash)
                    .map(|(_, b)| b),
                _ => None,
            };
            session.replay_event(e, bundle);
        }
        Ok(Feed::Playing)
    }
}

/// What playing a whole movie found.
#[derive(Clone, Debug)]
pub struct PlayReport {
    /// Frames played.
    pub frames: u64,
    /// State checks made.
    pub checks: u64,
    /// The first failed check.
    pub desync: Option<Desync>,
    /// FNV-1a of the core image at the end.
    pub final_hash: u64,
    /// The core the movie was recorded on, when it is not this one: its state checks were
    /// not made, so the playback is unverified.
    pub other_core: Option<u32>,
}

impl Movie {
    /// The core version the movie was recorded on, when it is not this build's
    /// ([`gb_core::CORE_VERSION`]): its state checks and keyframes are another core's, so
    /// playback feeds its input without checking (a timing fix changes what a game does) and
    /// says so ([`Movie::core_note`]).
    pub fn other_core(&self) -> Option<u32> {
        (self.header.core_version != gb_core::CORE_VERSION).then_some(self.header.core_version)
    }

    /// What a player tells the user about a movie of another core, if this is one.
    pub fn core_note(&self) -> Option<String> {
        self.other_core().map(|v| {
            format!(
                "recorded on core version {v}, this build's core is version {}: its state \
                 checks are not made (the core's timing changed since), so the playback is \
                 unverified; frames are counted by the {} rule it was recorded with",
                gb_core::CORE_VERSION,
                self.header.frame_rule
            )
        })
    }
}

/// Play `movie` from its start to its end in a new session on `rom` (headless); `progress`
/// is called every 600 frames with the frames played.
pub fn play(
    movie: &Movie,
    roms: impl Into<Roms>,
    config: SessionConfig,
    mut progress: impl FnMut(u64, &Session),
) -> Result<(PlayReport, Session), MovieError> {
    let mut session = movie.session(roms, config)?;
    let mut feeder = Feeder::new();
    let mut frames = 0;
    while feeder.feed(movie, &mut session)? == Feed::Playing {
        session.run_frame();
        frames += 1;
        if frames % 600 == 0 {
            progress(frames, &session);
        }
    }
    let report = PlayReport {
        frames,
        checks: feeder.checks,
        desync: feeder.desync,
        final_hash: state_hash(&session),
        other_core: movie.other_core(),
    };
    Ok((report, session))
}

impl Movie {
    /// The log a core keyframe's session starts with: the buttons each player holds there,
    /// as joypad changes at `frame` (the frame before the keyframe's).
    fn held_log(&self, frame: u64, held: [gb_core::Buttons; 2]) -> Vec<Event> {
        let mut log = vec![Event {
            frame,
            cycle: 0,
            kind: EventKind::Joypad(held[0]),
        }];
        if self.players() > 1 {
            log.push(Event {
                frame,
                cycle: 0,
                kind: EventKind::PlayerJoypad {
                    player: 1,
                    buttons: held[1],
                },
            });
        }
        log
    }

    /// Make the delta images of a keyframe's state file whole again, from the images of the
    /// keyframes they are stored against (see `format::keyframe`); `None` if one cannot be.
    fn resolve_deltas(&self, file: &mut StateFile) -> Option<()> {
        let mut bases: Vec<(u64, StateFile)> = Vec::new();
        for image in &mut file.images {
            let Some(at) = image.base else { continue };
            if !bases.iter().any(|(f, _)| *f == at) {
                let i = self
                    .chunks()
                    .iter()
                    .position(|c| c.meta.start_frame == at && c.meta.flags & FLAG_KEYFRAME != 0)?;
                let key = self.chunk(i).ok()?.keyframe?;
                bases.push((at, StateFile::decode(&key).ok()?));
            }
            let (_, base) = bases.iter().find(|(f, _)| *f == at)?;
            let from = base
                .images
                .iter()
                .find(|b| b.slot == image.slot && b.base.is_none())?;
            let whole = lua_rollback::image_from_delta(
                from.image.as_ref().ok()?,
                image.image.as_ref().ok()?,
            )
            .ok()?;
            image.image = Ok(whole);
            image.base = None;
        }
        Some(())
    }

    /// A session at `frame` of the movie: from the nearest keyframe at or before it that holds
    /// the whole state — a core image while no script or other event came before it, or a
    /// state file with the scripts' portable images (sealed with this user's key, see
    /// `format::keyframe`) — otherwise from the movie's start; then played forward to `frame`
    /// (`progress` is called after every frame). A keyframe whose scripts cannot be restored
    /// exactly here (another user's movie) is passed over for an earlier one. Returns the
    /// session and a feeder to go on playing.
    pub fn session_at(
        &self,
        roms: impl Into<Roms>,
        config: SessionConfig,
        frame: u64,
        mut progress: impl FnMut(&mut Session),
    ) -> Result<(Session, Feeder), MovieError> {
        let roms = roms.into();
        let frame = frame.clamp(self.header.start_frame, self.end_frame());
        // A movie of another core has keyframes this core cannot take: it plays from its
        // start.
        let power_on =
            matches!(self.header.start, Start::PowerOn { .. }) && self.other_core().is_none();
        // The last keyframe at or before `frame`, found from the index alone: a state file
        // there starts the seek without reading the chunks before it.
        let last_key = self
            .chunks()
            .iter()
            .rposition(|c| c.meta.start_frame <= frame && c.meta.flags & FLAG_KEYFRAME != 0);
        let from_state = match last_key {
            Some(i) if power_on && self.chunks()[i].meta.start_frame > 0 => self
                .chunk(i)?
                .keyframe
                .filter(|k| is_state_keyframe(k))
                .and_then(|key| {
                    let mut file = StateFile::decode(&key).ok()?;
                    self.resolve_deltas(&mut file)?;
                    self.check_roms(&roms).ok()?;
                    Session::from_state_file_exact(roms.clone(), config.clone(), &file).ok()
                }),
            _ => None,
        };
        // Otherwise: the last core keyframe no script or other event came before.
        let mut from_core = None;
        // The buttons each player holds (the second only in a linked pair's movie).
        let mut held = [gb_core::Buttons::default(); 2];
        if power_on && from_state.is_none() {
            'scan: for (i, c) in self.chunks().iter().enumerate() {
                if c.meta.start_frame > frame {
                    break;
                }
                let chunk = self.chunk(i)?;
                if let Some(key) = chunk.keyframe
                    && !is_state_keyframe(&key)
                {
                    from_core = Some((c.meta.start_frame, key, held));
                }
                for e in &chunk.events {
                    match e.kind {
                        EventKind::Joypad(b) => held[0] = b,
                        EventKind::PlayerJoypad { player, buttons } if player < 2 => {
                            held[usize::from(player)] = buttons;
                        }
                        // In the image: the pokes' bytes, the cable's plugging.
                        EventKind::Poke { .. }
                        | EventKind::PokeMemory { .. }
                        | EventKind::Cable { .. } => {}
                        // A later core keyframe would lack this script's state.
                        _ => break 'scan,
                    }
                }
            }
        }
        let mut session = match (from_state, from_core) {
            (Some(s), _) => s,
            (None, Some((at, core, held))) if at > 0 => {
                self.check_roms(&roms)?;
                let file = StateFile {
                    meta: crate::state::file::Meta {
                        rom_hash: self.header.rom_hash,
                        rom_title: self.header.rom_title.clone(),
                        model: self.header.model.clone(),
                        frame: at,
                        unix_time: 0,
                        build: String::new(),
                    },
                    core,
                    scripts: Vec::new(),
                    sources: Vec::new(),
                    // The buttons held at the keyframe, as the log's last joypad changes.
                    log: self.held_log(at - 1, held),
                    thumbnail: None,
                    arenas: None,
                    images: Vec::new(),
                    link: self.header.second.as_ref().map(|b| LinkMeta {
                        rom_hash: b.rom_hash,
                        rom_title: b.rom_title.clone(),
                        model: b.model.clone(),
                    }),
                };
                Session::from_state_file(roms, None, config, &file)?
            }
            _ => self.session(roms, config)?,
        };
        let mut feeder = Feeder::new();
        feeder.start = session.frame();
        while session.frame() < frame && feeder.feed(self, &mut session)? == Feed::Playing {
            session.run_frame();
            progress(&mut session);
        }
        Ok((session, feeder))
    }
}
