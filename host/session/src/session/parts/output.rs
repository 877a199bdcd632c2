//! [`Output`]: what the session hands its host besides the picture and the audio: the lines
//! scripts printed, what they asked of the app's window, and whether a script reads the
//! host's keys and mouse. The host takes them after each call; none of it is state (a replay
//! makes no new output, see `hooks.rs`).

use crate::api::ClientRequest;

/// A line a script printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleLine {
    /// The script's slot.
    pub slot: u32,
    /// The text.
    pub text: String,
}

/// Output waiting for the host.
#[derive(Debug, Default)]
pub(crate) struct Output {
    /// Console lines not taken yet.
    pub(crate) console: Vec<ConsoleLine>,
    /// What scripts asked of the app's window while frames ran live, with their slots.
    pub(crate) client_requests: Vec<(u32, ClientRequest)>,
    /// A script has read the host's keys or mouse: the app logs them (`set_host_input`).
    pub(crate) wants_host_input: bool,
}

impl Output {
    /// Print `text` on the console as from `slot`.
    pub(crate) fn line(&mut self, slot: u32, text: String) {
        self.console.push(ConsoleLine { slot, text });
    }
}
