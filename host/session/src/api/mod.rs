//! The Lua API's host side: the functions scripts call, answered by a [`lua_rollback::Host`]
//! that borrows the parts of the session a call may touch, for the duration of one VM call.
//! The API itself is described in [`spec`]; the Lua side is `prelude.lua` (native API) with
//! `ui.lua` (the data of scripts' windows), and the compatibility layers `bizhawk.lua` (with
//! `forms.lua`: BizHawk's forms), `vba.lua` and `mgba.lua`. The host side: [`context`] (what a
//! call may reach), [`args`] (reading arguments), [`memory`], [`draw`], [`machine`], [`io`],
//! [`window`], [`tas`] and [`apu`] (the calls, by family; this module only dispatches), [`ui`] (the windows'
//! description a script hands out), [`console`] (the REPL's VM).
//!
//! Nothing here remembers anything about Lua between calls: hooks, pending input and the
//! coroutine live in the script's arena (see `prelude.lua`), so they roll back with it. The
//! host keeps only what must *not* roll back: each script's `persist` table and its output
//! (draw list, console lines).

use lua_rollback::{Host, HostReturn, Value};

pub mod apu;
pub mod args;
pub mod console;
pub mod context;
pub mod draw;
pub mod io;
pub mod machine;
pub mod memory;
pub mod spec;
pub mod tas;
pub mod ui;
pub mod window;

pub use crate::data::{Flavor, Image};
pub use args::color;
pub use context::{Api, ClientRequest, DrawCmd, Request, SessionView, TasRequest};
use spec::READ;
pub use spec::register;
pub use ui::{Control, ControlKind, Form, ScriptUi, TextBuffer};

/// The Lua source run in every script VM before the script (the API, then the windows'
/// data: `ui.lua`).
pub const PRELUDE: &str = concat!(include_str!("prelude.lua"), include_str!("ui.lua"));

/// The compatibility layer run after the prelude for a script written for `flavor`, if any.
pub fn layer(flavor: Flavor) -> Option<&'static str> {
    match flavor {
        Flavor::Native => None,
        Flavor::BizHawk => Some(concat!(
            include_str!("bizhawk.lua"),
            include_str!("forms.lua")
        )),
        Flavor::Vba => Some(include_str!("vba.lua")),
        Flavor::Mgba => Some(include_str!("mgba.lua")),
    }
}

impl Host for Api<'_> {
    fn call(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<HostReturn, String> {
        // The hottest call, `memory.read_u8(addr)` on the bus, before any dispatch (scripts
        // call it thousands of times a frame); anything else takes the general path below.
        if id == READ
            && let [Value::Integer(a)] = args
            && let Ok(a) = u16::try_from(*a)
        {
            ret.push(Value::Integer(i64::from(self.gb.peek(a))));
            return Ok(HostReturn::Values);
        }
        if id >= spec::FIXED {
            self.call_fixed(id, args, ret)?;
            return Ok(HostReturn::Values);
        }
        if self.call_memory(id, args, ret)?
            || self.call_draw(id, args, ret)?
            || self.call_machine(id, args, ret)?
            || self.call_io(id, args, ret)?
            || self.call_tas(id, args, ret)?
            || self.call_window(id, args, ret)?
            || self.call_apu(id, args, ret)?
        {
            Ok(HostReturn::Values)
        } else {
            Err(format!("unknown host function {id}"))
        }
    }
}
