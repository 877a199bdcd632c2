//! The thread's ties to the window: the [`View`] mutex it publishes into, the
//! repaint it asks for, the signal that stops it, and whether it stopped ([`WindowLink`]);
//! and the input the window reports ([`Input`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use gb_core::Buttons;

use super::view::View;

/// Where the view goes and what stops the thread.
pub(crate) struct WindowLink {
    /// The view the window draws.
    pub(crate) shared: Arc<Mutex<View>>,
    /// Called after every publish (the window's repaint).
    pub(crate) on_publish: Option<Box<dyn Fn() + Send>>,
    /// Set by a signal handler (SIGTERM, SIGINT): save and stop.
    pub(crate) stop: Option<Arc<AtomicBool>>,
    /// The thread is to stop.
    pub(crate) quit: bool,
}

impl WindowLink {
    /// A link publishing into `shared`, stopped by `stop`.
    pub(crate) fn new(shared: Arc<Mutex<View>>, stop: Option<Arc<AtomicBool>>) -> WindowLink {
        WindowLink {
            shared,
            on_publish: None,
            stop,
            quit: false,
        }
    }

    /// Hand `view` to the window and ask for its repaint.
    pub(crate) fn publish(&self, view: View) {
        *self.shared.lock().unwrap_or_else(|e| e.into_inner()) = view;
        self.repaint();
    }

    /// Tell the window the thread stopped.
    pub(crate) fn publish_quit(&self) {
        self.shared.lock().unwrap_or_else(|e| e.into_inner()).quit = true;
        self.repaint();
    }

    fn repaint(&self) {
        if let Some(f) = &self.on_publish {
            f();
        }
    }

    /// A signal asked the thread to stop.
    pub(crate) fn signalled(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// The input the window last reported.
#[derive(Default)]
pub(crate) struct Input {
    /// The buttons held.
    pub(crate) held: Buttons,
    /// The second player's buttons held (a linked pair).
    pub(crate) second: Buttons,
    /// The host's keys and mouse, for scripts that read them.
    pub(crate) host: gb_session::data::HostInput,
}
