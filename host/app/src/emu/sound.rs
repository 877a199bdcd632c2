//! [`Sound`]: the frame's samples drained from the session and sent to the output device,
//! heard only at normal speed while running (muted with a fade otherwise).

use gb_session::Session;

use crate::audio::output::AudioOut;

/// The output device and the buffer samples are drained into.
pub(crate) struct Sound {
    /// The device (or a silent clock).
    pub(crate) out: AudioOut,
    /// The samples of one drain.
    pub(crate) buf: Vec<gb_core::apu::Sample>,
}

impl Sound {
    /// The device if `device`, else a silent clock.
    pub(crate) fn open(device: bool) -> Sound {
        Sound {
            out: if device {
                AudioOut::open()
            } else {
                AudioOut::silent(48_000)
            },
            buf: vec![(0, 0); gb_core::apu::RING_CAPACITY],
        }
    }

    /// Send the session's new samples to the device: heard if `audible`, else muted (and
    /// sent only while the device's queue runs dry, so it keeps its clock).
    pub(crate) fn play(&mut self, session: &mut Session, audible: bool) {
        let n = session.drain_audio(&mut self.buf);
        self.out.set_muted(!audible);
        if audible || self.out.queued_seconds() < 0.02 {
            self.out.push(&self.buf[..n]);
        }
    }
}
