//! The console: commands typed at the REPL or the console panel, parsed once into a
//! [`command::Command`] and run by the emulation thread.
//! - `command.rs`: the [`command::Command`] type, its parser and its help text;
//! - `cmd_words.rs`: the words every command family is made of (addresses with a bank, hex
//!   numbers, lengths);
//! - `debug_cmds.rs`, `tool_cmds.rs`: the debugger's and the tools' command families;
//! - `hexdump.rs`: hex dumps as `peek` and the memory viewer show them;
//! - `repl.rs`: the terminal REPL on its own thread.

pub(crate) mod cmd_words;
pub(crate) mod command;
pub(crate) mod debug_cmds;
pub(crate) mod hexdump;
pub(crate) mod link_cmds;
pub(crate) mod repl;
pub(crate) mod tool_cmds;
