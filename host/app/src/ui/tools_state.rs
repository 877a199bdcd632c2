//! What the tool windows keep between frames (what is typed and chosen): the RAM Search
//! window's ([`SearchUi`]), the RAM Watch window's ([`WatchUi`]), the Cheats window's
//! ([`CheatUi`]) and the Debugger's ([`DebugUi`]). The windows themselves are
//! `ram_search.rs`, `ram_watch.rs`, `cheats.rs`, `debugger.rs`. [`ToolWindows`] groups them
//! with the TAS editor's and the VRAM viewer's state.

use gb_core::Domain;

use super::roll_state::RollUi;
use super::vram_state::VramUi;
use gb_session::tools::search::{Layout, Op};

/// Every tool window's state between frames.
#[derive(Default)]
pub(super) struct ToolWindows {
    /// The TAS editor's window.
    pub(super) roll: RollUi,
    /// The RAM Search window.
    pub(super) search_ui: SearchUi,
    /// The RAM Watch window.
    pub(super) watch_ui: WatchUi,
    /// The Cheats window.
    pub(super) cheat_ui: CheatUi,
    /// The Debugger window.
    pub(super) debug_ui: DebugUi,
    /// The VRAM viewer and I/O registers windows.
    pub(super) vram_ui: VramUi,
}

/// What a filter compares with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum Against {
    #[default]
    Previous,
    Value,
    Address,
    Changes,
}

/// The RAM Search window's state.
pub(super) struct SearchUi {
    pub(super) open: bool,
    pub(super) domain: Domain,
    pub(super) layout: Layout,
    pub(super) against: Against,
    pub(super) op: Op,
    pub(super) differs_by: bool,
    pub(super) by: String,
    pub(super) operand: String,
    /// The selected candidate (offset in the searched memory).
    pub(super) selected: Option<u32>,
    pub(super) poke: String,
    /// Why the last action could not be sent.
    pub(super) error: Option<String>,
}

impl Default for SearchUi {
    fn default() -> SearchUi {
        SearchUi {
            open: false,
            domain: Domain::Wram,
            layout: Layout::default(),
            against: Against::Previous,
            op: Op::Lt,
            differs_by: false,
            by: "1".into(),
            operand: String::new(),
            selected: None,
            poke: String::new(),
            error: None,
        }
    }
}

impl SearchUi {
    /// The filter's words for the `search` command, or why they cannot be made.
    pub(super) fn filter_words(&self) -> Result<Vec<String>, String> {
        let op = match self.op {
            Op::Lt => "lt",
            Op::Gt => "gt",
            Op::Le => "le",
            Op::Ge => "ge",
            Op::Eq => "eq",
            Op::Ne => "ne",
            Op::DiffersBy(_) => "eq",
        };
        let operand = self.operand.trim();
        let need = |what: &str| {
            if operand.is_empty() {
                Err(format!("type {what} to compare with"))
            } else {
                Ok(operand.to_owned())
            }
        };
        let mut words: Vec<String> = if self.differs_by {
            vec!["by".into(), self.by.trim().to_owned()]
        } else {
            vec![op.into()]
        };
        match self.against {
            Against::Previous => {}
            Against::Value => words.push(need("a value")?),
            Against::Address => words.push(format!("@{}", need("an address")?)),
            Against::Changes => {
                let n = need("a number of changes")?;
                words = vec!["changes".into(), op.into(), n];
            }
        }
        Ok(words)
    }
}

/// The RAM Watch window's state.
#[derive(Default)]
pub(super) struct WatchUi {
    pub(super) open: bool,
    /// The selected watch (0-based).
    pub(super) selected: Option<usize>,
    pub(super) poke: String,
    pub(super) add_addr: String,
    pub(super) add_name: String,
    pub(super) add_layout: Layout,
    pub(super) file: String,
    pub(super) error: Option<String>,
}

/// The Cheats window's state.
#[derive(Default)]
pub(super) struct CheatUi {
    pub(super) open: bool,
    pub(super) code: String,
    pub(super) name: String,
    pub(super) error: Option<String>,
}

#[cfg(test)]
impl CheatUi {
    /// Forget what is typed (tests).
    pub(super) fn clear(&mut self) {
        self.code.clear();
        self.name.clear();
        self.error = None;
    }
}

/// The Debugger window's state.
#[derive(Default)]
pub(super) struct DebugUi {
    pub(super) open: bool,
    /// The breakpoint being typed (`sub`, `w C0A0 if value == 3`).
    pub(super) input: String,
}
