//! What the side panels keep between frames ([`Panels`]): which are open ([`OpenPanels`]) and
//! what is typed in their fields ([`PanelText`]). The panels themselves are `panels.rs`.

/// The side panels' state.
#[derive(Default)]
pub(super) struct Panels {
    /// Which are open.
    pub(super) open: OpenPanels,
    /// What is typed in their fields.
    pub(super) text: PanelText,
}

/// Which side panels are open (the View menu's checkboxes).
pub(super) struct OpenPanels {
    /// The scripts panel (open at start).
    pub(super) scripts: bool,
    /// The console panel (open at start).
    pub(super) console: bool,
    /// The memory viewer (closed at start).
    pub(super) memory: bool,
}

impl Default for OpenPanels {
    fn default() -> Self {
        Self {
            scripts: true,
            console: true,
            memory: false,
        }
    }
}

/// What is typed in the side panels' text fields, kept between frames.
pub(super) struct PanelText {
    /// The scripts panel's path field.
    pub(super) script: String,
    /// The console panel's command line.
    pub(super) console: String,
    /// The memory viewer's start address (hex).
    pub(super) mem_start: String,
    /// The memory viewer's poke fields: the address and the bytes (hex, spaced).
    pub(super) mem_edit: (String, String),
    /// The watch list's address field.
    pub(super) watch: String,
}

impl Default for PanelText {
    fn default() -> Self {
        Self {
            script: String::new(),
            console: String::new(),
            mem_start: "C000".into(),
            mem_edit: (String::new(), String::new()),
            watch: String::new(),
        }
    }
}
