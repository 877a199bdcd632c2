//! [`Pacing`]: how the emulation thread runs frames — paused, rewinding, at which speed —
//! and the frame rate it measures, with the part of the view they make ([`PacingView`]).

use std::time::{Duration, Instant};

use super::types::Speed;
use super::view::PacingView;

/// One frame at normal speed: 70,224 T-cycles at 4,194,304 Hz (59.73 fps).
pub const FRAME: Duration = Duration::from_nanos(16_742_706);
/// Frames run per tick in fast-forward.
pub const FAST_FACTOR: u32 = 4;

/// How often the measured frame rate is brought up to date.
const FPS_EVERY: Duration = Duration::from_millis(500);

/// Paused, rewinding, the speed, and the frame rate measured.
pub(crate) struct Pacing {
    /// Paused.
    pub(crate) paused: bool,
    /// Frames rewound per tick while the rewind key is held (0: not rewinding).
    pub(crate) rewind: u32,
    /// The chosen speed.
    pub(crate) speed: Speed,
    /// Frames shown since `since`.
    pub(crate) frames: u32,
    /// When the frame rate was last measured.
    pub(crate) since: Instant,
    /// The frame rate last measured.
    pub(crate) fps: f64,
}

impl Pacing {
    /// Running at normal speed, paused as `paused` says.
    pub(crate) fn new(paused: bool) -> Pacing {
        Pacing {
            paused,
            rewind: 0,
            speed: Speed::Normal,
            frames: 0,
            since: Instant::now(),
            fps: 0.0,
        }
    }

    /// Count a frame shown (emulated or sought to).
    pub(crate) fn count_frame(&mut self) {
        self.frames += 1;
    }

    /// Running forward at normal speed: the sound is heard (and the device's clock may pace
    /// the frames).
    pub(crate) fn audible(&self) -> bool {
        self.speed == Speed::Normal && self.rewind == 0 && !self.paused
    }

    /// What the window shows of it, the frame rate measured again when it is due.
    pub(crate) fn view(&mut self) -> PacingView {
        let elapsed = self.since.elapsed();
        if elapsed >= FPS_EVERY {
            self.fps = f64::from(self.frames) / elapsed.as_secs_f64();
            self.frames = 0;
            self.since = Instant::now();
        }
        PacingView {
            fps: self.fps,
            speed: self.fps / (1.0 / FRAME.as_secs_f64()),
            paused: self.paused,
            rewinding: self.rewind > 0,
            speed_mode: self.speed,
        }
    }
}
