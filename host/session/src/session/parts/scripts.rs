//! [`Scripts`]: every script slot of a session, loaded or parked, the source versions they run
//! and are to run, and what their calls leave for the session to carry out (state requests,
//! the addresses their bus hooks watch). The VMs themselves are [`crate::script::Script`]s;
//! calling into them with an API context is the session's `hooks.rs`.
//!
//! Invariant: the slots are kept in slot order, and a slot's number is never given twice.

use std::collections::{BTreeMap, HashMap};

use gb_core::watch::{Access, Hit};

use crate::api::Request;
use crate::data::{Bundle, SourceHash};
use crate::script::Script;

/// A `persist` table (`lua_rollback` values by encoded key).
pub(crate) type Persist = BTreeMap<Vec<u8>, lua_rollback::Value>;

/// The scripts of a session.
#[derive(Debug)]
pub(crate) struct Scripts {
    /// Every script slot, loaded or parked, in slot order.
    pub(crate) list: Vec<Script>,
    /// The slot the next load gets.
    pub(crate) next_slot: u32,
    /// Every source version the session knows (the log names them by hash).
    pub(crate) sources: HashMap<SourceHash, Bundle>,
    /// The latest source of each script, the truth a restored VM is brought up to.
    pub(crate) current: BTreeMap<u32, SourceHash>,
    /// `persist` tables logged for slots whose script is not loaded yet.
    pub(crate) pending_persist: BTreeMap<u32, Persist>,
    /// The players logged (`ScriptPlayer`) for the next load of a slot.
    pub(crate) pending_player: BTreeMap<u32, u8>,
    /// What the call under way asked for (done when it returns).
    pub(crate) requests: Vec<Request>,
    /// `on_load_state` hooks are running.
    pub(crate) firing_load: bool,
    /// The addresses the scripts' bus hooks watch, as they last said (kind, first, length).
    pub(crate) watches: Vec<(Access, u16, u32)>,
    /// Scratch list of watchpoint hits.
    pub(crate) hits: Vec<Hit>,
}

impl Default for Scripts {
    fn default() -> Self {
        Scripts {
            list: Vec::new(),
            next_slot: 1,
            sources: HashMap::new(),
            current: BTreeMap::new(),
            pending_persist: BTreeMap::new(),
            pending_player: BTreeMap::new(),
            requests: Vec::new(),
            firing_load: false,
            watches: Vec::new(),
            hits: Vec::new(),
        }
    }
}

impl Scripts {
    /// The loaded scripts (parked ones excluded), in slot order.
    pub(crate) fn active(&self) -> impl Iterator<Item = &Script> {
        self.list.iter().filter(|s| s.active)
    }

    /// The index of the loaded script in `slot`.
    pub(crate) fn position_active(&self, slot: u32) -> Option<usize> {
        self.list.iter().position(|s| s.slot == slot && s.active)
    }

    /// A snapshot of every loaded script's VM, by slot.
    pub(crate) fn snapshots(&mut self) -> Vec<(u32, lua_rollback::Snapshot)> {
        self.list
            .iter_mut()
            .filter(|s| s.active)
            .map(|s| (s.slot, s.vm.snapshot()))
            .collect()
    }

    /// A new slot number.
    pub(crate) fn take_slot(&mut self) -> u32 {
        let slot = self.next_slot;
        self.next_slot += 1;
        slot
    }

    /// `slot` is in use (a movie's or state file's script): later loads get higher slots.
    pub(crate) fn reserve(&mut self, slot: u32) {
        self.next_slot = self.next_slot.max(slot.saturating_add(1));
    }

    /// Whether the scripts watch `addr` for `access` (only those hits are theirs).
    pub(crate) fn watch(&self, access: Access, addr: u16) -> bool {
        self.watches
            .iter()
            .any(|&(a, first, len)| a == access && u32::from(addr.wrapping_sub(first)) < len.max(1))
    }
}
