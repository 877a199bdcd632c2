//! The console's Lua in a session: a line a user types in the REPL, evaluated with the same
//! API the scripts have (`memory.*` in every width and domain, `emu.*`, `joypad.get`, …), in
//! a VM of its own ([`crate::api::console`]) that lives outside the timeline (it is never
//! captured, restored or replayed).
//!
//! The console may read anything. It changes the machine only through the log: its memory
//! writes become pokes logged by `input.rs`'s [`Session::poke`] and [`Session::poke_memory`]
//! (applied before the next frame, like the REPL's `poke`; into any bank of a memory domain
//! too), and the
//! calls that would change the machine outside the log (`emu.setregister`, `savestate.*`) are
//! refused with a clear error. Its drawing goes nowhere.

use std::collections::{BTreeMap, HashMap};

use super::Session;
use crate::api::console::Console;
use crate::api::{Api, SessionView};
use crate::data::EventKind;

impl Session {
    /// Evaluate one line of Lua in the console: as an expression first (`return LINE`), else
    /// as a statement. Returns what it printed and the values it gave (`nil`, numbers with
    /// their hex, strings quoted), or `error: …`. Memory writes are logged pokes.
    pub fn eval_console(&mut self, line: &str) -> String {
        let mut console = self.console_vm.take();
        let mut pokes = Vec::new();
        let out = self.with_console_api(&mut pokes, |api| {
            if console.is_none() {
                console = Some(Console::new(api)?);
            }
            Ok(console
                .as_mut()
                .map(|c| c.eval(api, line))
                .unwrap_or_default())
        });
        self.console_vm = console;
        // Logged through `input.rs`, as every outside input is.
        for kind in pokes {
            match kind {
                EventKind::Poke { addr, value } => self.poke(addr, value),
                EventKind::PokeMemory {
                    domain,
                    offset,
                    value,
                } => self.poke_memory(domain, offset, value),
                // The console's API collects nothing else (`api::memory`'s `store`).
                _ => {}
            }
        }
        out.unwrap_or_else(|e: String| format!("error: {e}"))
    }

    /// Run `f` with the console's API context: the machine to read, writes collected into
    /// `pokes`, a draw list and `persist` table that are thrown away.
    fn with_console_api<R>(
        &mut self,
        pokes: &mut Vec<EventKind>,
        f: impl FnOnce(&mut Api<'_>) -> R,
    ) -> R {
        let (mut draw, mut persist, mut requests, mut states) =
            (Vec::new(), BTreeMap::new(), Vec::new(), HashMap::new());
        let images = HashMap::new();
        let players = self.machine.players();
        let (gb, other) = self.machine.player_and_other_mut(0);
        let mut api = Api {
            gb,
            other,
            frame: self.timeline.frame,
            draw: &mut draw,
            persist: &mut persist,
            requests: &mut requests,
            states: &mut states,
            images: &images,
            pokes: Some(pokes),
            slot: 0,
            files: None,
            view: SessionView {
                user_buttons: self.inputs.user,
                player: 0,
                players,
                rom_hash: self.start.rom_hash,
                clock: self.world.clock,
                movie: self.world.movie.as_ref(),
                editor: self.world.editor.as_ref(),
                log: Some(&self.timeline.log),
            },
        };
        f(&mut api)
    }
}
