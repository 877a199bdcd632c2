//! [`Movie`]: a movie read from a file (journal or compact form), its chunks decoded on
//! demand, and sessions made at its start or at any of its frames (from the nearest usable
//! keyframe).

use std::path::Path;

use super::container;
use super::error::MovieError;
use super::format::{Chunk, MovieHeader, Start};
use crate::codec::DecodeError;
use crate::data::limits::{MAX_FRAME, MAX_FRAME_LIST};
use crate::data::{Event, EventKind, Pads, fnv1a};
use crate::session::{PowerOn, Roms, Session, SessionConfig, SessionError};
use crate::state::StateFile;
use gb_core::{Model, ModelChoice};

/// One frame's input, for formats that hold one input a frame (`.bk2`): see
/// [`Movie::frame_inputs`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameInput {
    /// Each player's buttons (the second's stay released on one Game Boy).
    pub buttons: [gb_core::Buttons; 2],
    /// The link cable plugged in (`Some(true)`) or pulled out (`Some(false)`) from this
    /// frame on; `None`: left as it was.
    pub cable: Option<bool>,
}

impl FrameInput {
    /// Every player's buttons, as the TAS editor's roll holds them.
    pub fn pads(&self) -> Pads {
        Pads::pair(self.buttons[0], self.buttons[1])
    }
}

/// A movie read from a file (either container form).
pub struct Movie {
    /// Its header.
    pub header: MovieHeader,
    reader: container::Reader,
}

impl Movie {
    /// Open a movie file (a finished one, or a recording's journal, recovered).
    pub fn open(path: &Path) -> Result<Movie, MovieError> {
        Movie::from_reader(container::Reader::open(path)?)
    }

    /// A movie from its bytes.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Movie, MovieError> {
        Movie::from_reader(container::Reader::from_bytes(bytes)?)
    }

    fn from_reader(reader: container::Reader) -> Result<Movie, MovieError> {
        let header = MovieHeader::decode(reader.header())?;
        if let Some(c) = reader.chunks().iter().find(|c| {
            c.meta.start_frame < header.start_frame
                || c.meta.start_frame.saturating_add(u64::from(c.meta.frames)) > MAX_FRAME
        }) {
            return Err(MovieError::Decode {
                part: "index".into(),
                source: DecodeError {
                    what: format!(
                        "a chunk at frame {} lies outside the movie (it starts at frame {})",
                        c.meta.start_frame, header.start_frame
                    ),
                    at: 0,
                },
            });
        }
        Ok(Movie { header, reader })
    }

    /// The chunks' index entries.
    pub fn chunks(&self) -> &[container::ChunkEntry] {
        self.reader.chunks()
    }

    /// The frame after the last recorded one.
    pub fn end_frame(&self) -> u64 {
        self.chunks().last().map_or(self.header.start_frame, |c| {
            c.meta.start_frame.saturating_add(u64::from(c.meta.frames))
        })
    }

    /// Frames recorded.
    pub fn frames(&self) -> u64 {
        self.end_frame().saturating_sub(self.header.start_frame)
    }

    /// Whether the file is the compact form.
    pub fn is_compact(&self) -> bool {
        self.reader.is_compact()
    }

    /// Chunk `i`, decoded.
    pub fn chunk(&self, i: usize) -> Result<Chunk, MovieError> {
        let raw = self.reader.read_chunk(i)?;
        let meta = &self.chunks()[i].meta;
        Chunk::decode(&raw, meta).map_err(|source| MovieError::Decode {
            part: format!("chunk {i}"),
            source,
        })
    }

    /// The index of the chunk holding `frame`.
    pub fn find(&self, frame: u64) -> Option<usize> {
        self.reader.find(frame)
    }

    /// The model the movie was recorded on (an unknown one is an error).
    pub fn model(&self) -> Result<Model, MovieError> {
        Model::from_name(&self.header.model)
            .ok_or_else(|| MovieError::UnknownModel(self.header.model.clone()))
    }

    /// Refuse a model other than the movie's, with a clear error.
    pub fn check_model(&self, model: Model) -> Result<(), MovieError> {
        let ours = self.model()?;
        if ours != model {
            return Err(MovieError::ForeignModel {
                theirs: ours,
                ours: model,
            });
        }
        Ok(())
    }

    /// Refuse a ROM the movie was not recorded on (the first player's, for a pair).
    pub fn check_rom(&self, rom: &[u8]) -> Result<(), MovieError> {
        let ours = fnv1a(rom);
        if ours != self.header.rom_hash {
            return Err(MovieError::ForeignRom {
                title: self.header.rom_title.clone(),
                theirs: self.header.rom_hash,
                ours,
            });
        }
        Ok(())
    }

    /// How many Game Boys the movie is of: 1, or 2 for a linked pair.
    pub fn players(&self) -> usize {
        1 + usize::from(self.header.second.is_some())
    }

    /// Refuse ROMs the movie was not recorded on: as many as it has players, each the one
    /// its player ran.
    pub fn check_roms(&self, roms: &Roms) -> Result<(), MovieError> {
        if roms.players() != self.players() {
            return Err(MovieError::Players {
                theirs: self.players(),
                ours: roms.players(),
            });
        }
        self.check_rom(&roms.first)?;
        if let (Some(theirs), Some(rom)) = (&self.header.second, &roms.second) {
            let ours = fnv1a(rom);
            if ours != theirs.rom_hash {
                return Err(MovieError::ForeignSecondRom {
                    title: theirs.rom_title.clone(),
                    theirs: theirs.rom_hash,
                    ours,
                });
            }
        }
        Ok(())
    }

    /// A new session at the movie's start, with the movie's ROM (both ROMs of a linked
    /// pair's movie: [`Roms::linked`]).
    pub fn session(
        &self,
        roms: impl Into<Roms>,
        config: SessionConfig,
    ) -> Result<Session, MovieError> {
        let roms = roms.into();
        self.check_roms(&roms)?;
        Ok(match &self.header.start {
            Start::PowerOn {
                battery,
                ram_init,
                dmg_palette,
                ..
            } => {
                let power = PowerOn {
                    battery: battery.clone(),
                    ram_init: *ram_init,
                    dmg_palette: *dmg_palette,
                    model: ModelChoice::Fixed(self.model()?),
                    frame_rule: self.header.frame_rule,
                    ..PowerOn::default()
                };
                match (roms.second, &self.header.second) {
                    (Some(rom_b), Some(b)) => {
                        let model = Model::from_name(&b.model)
                            .ok_or_else(|| MovieError::UnknownModel(b.model.clone()))?;
                        let power_b = PowerOn {
                            battery: b.power.battery.clone(),
                            ram_init: b.power.ram_init,
                            dmg_palette: b.power.dmg_palette,
                            model: ModelChoice::Fixed(model),
                            frame_rule: self.header.frame_rule,
                            ..PowerOn::default()
                        };
                        Session::power_on_linked((roms.first, power), (rom_b, power_b), config)?
                    }
                    _ => Session::power_on(roms.first, power, config)?,
                }
            }
            Start::State(bytes) => {
                let file = StateFile::decode(bytes).map_err(SessionError::from)?;
                Session::from_state_file(roms, None, config, &file)?
            }
        })
    }

    /// One set of buttons per frame, from the movie's start to its end: the last buttons
    /// logged for that frame (or held from before), and how many events that drops (a
    /// frame's earlier joypad changes, pokes, scripts; not the start time or file reads, which
    /// are no input of the machine). A linked pair's player 2 and cable are dropped too:
    /// [`Movie::frame_inputs`] keeps them.
    pub fn frame_buttons(&self) -> Result<(Vec<gb_core::Buttons>, usize), MovieError> {
        let (inputs, lost) = self.walk_frames(false)?;
        Ok((inputs.into_iter().map(|f| f.buttons[0]).collect(), lost))
    }

    /// One [`FrameInput`] per frame, from the movie's start to its end: each player's last
    /// buttons logged for that frame (or held from before) and the cable's last plugging in
    /// it, and how many events that drops (a frame's earlier joypad changes or pluggings,
    /// pokes, scripts; not the start time or file reads).
    pub fn frame_inputs(&self) -> Result<(Vec<FrameInput>, usize), MovieError> {
        self.walk_frames(true)
    }

    /// The link cable's pluggings of a linked pair's movie, each as it was logged (its frame
    /// and cycle): what the TAS editor feeds again beside its roll.
    pub fn cable_events(&self) -> Result<Vec<Event>, MovieError> {
        let mut out = Vec::new();
        for i in 0..self.chunks().len() {
            let chunk = self.chunk(i)?;
            out.extend(
                chunk
                    .events
                    .iter()
                    .filter(|e| matches!(e.kind, EventKind::Cable { .. }))
                    .cloned(),
            );
        }
        Ok(out)
    }

    /// The walk of [`Movie::frame_buttons`] and [`Movie::frame_inputs`]; `pair`: keep
    /// player 2's joypad and the cable.
    fn walk_frames(&self, pair: bool) -> Result<(Vec<FrameInput>, usize), MovieError> {
        if self.frames() > MAX_FRAME_LIST {
            return Err(MovieError::TooLong(self.frames()));
        }
        let mut out = Vec::with_capacity(self.frames() as usize);
        let mut now = FrameInput::default();
        let mut lost = 0;
        let mut f = self.header.start_frame;
        for i in 0..self.chunks().len() {
            let chunk = self.chunk(i)?;
            // The frame each player's joypad and the cable last changed in.
            let mut last_frame = [None; 3];
            for e in &chunk.events {
                while f < e.frame {
                    out.push(now);
                    now.cable = None;
                    f += 1;
                }
                let mut change = |what: usize| {
                    if last_frame[what] == Some(e.frame) {
                        lost += 1;
                    }
                    last_frame[what] = Some(e.frame);
                };
                match e.kind {
                    EventKind::Joypad(b) => {
                        change(0);
                        now.buttons[0] = b;
                    }
                    EventKind::PlayerJoypad { player: 1, buttons } if pair => {
                        change(1);
                        now.buttons[1] = buttons;
                    }
                    EventKind::Cable { plugged } if pair => {
                        change(2);
                        now.cable = Some(plugged);
                    }
                    // No input of the machine: the start time, the scripts' file reads.
                    EventKind::Clock { .. } | EventKind::FileRead { .. } => {}
                    _ => lost += 1,
                }
            }
        }
        while f < self.end_frame() {
            out.push(now);
            now.cable = None;
            f += 1;
        }
        Ok((out, lost))
    }
}
