//! [`Viewers`]: what the window is looking at — the costly panels shown (whose parts of the
//! view are built only then) and the memory viewer's window — and the memory it shows.

use gb_core::{Domain, Gb};

use super::types::Shown;

/// The panels shown and the memory viewer's window.
pub(crate) struct Viewers {
    /// The panels shown.
    pub(crate) shown: Shown,
    /// The memory viewer's window: its domain (None: the bus), start offset and length.
    pub(crate) mem_window: (Option<Domain>, u32, u32),
}

impl Default for Viewers {
    fn default() -> Viewers {
        Viewers {
            shown: Shown::default(),
            mem_window: (None, 0xC000, 0x100),
        }
    }
}

impl Viewers {
    /// The memory viewer's window of `gb`: its domain, start, the bytes, the domain's size.
    pub(crate) fn memory(&self, gb: &Gb) -> (Option<Domain>, u32, Vec<u8>, usize) {
        let (domain, start, len) = self.mem_window;
        let (bytes, size): (Vec<u8>, usize) = match domain {
            None => (
                (0..len)
                    .map(|i| gb.peek((start.wrapping_add(i) & 0xFFFF) as u16))
                    .collect(),
                0x10000,
            ),
            Some(d) => {
                let all = gb.domain(d);
                let from = (start as usize).min(all.len());
                let to = (from + len as usize).min(all.len());
                (all[from..to].to_vec(), all.len())
            }
        };
        (domain, start, bytes, size)
    }
}
