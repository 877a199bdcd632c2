//! `gb-session`'s integration tests, in one test binary (one link instead of twelve): the Lua
//! API on both layers, its generated docs, BizHawk movies, the compatibility layers, the
//! scripts' windows (forms, text buffers, the host's keys and mouse), the movie container,
//! movies, the parsers under property tests, rewind on real gameplay, the sandbox, the scripts
//! we ship, and state files.

mod api;
mod api_docs;
mod bk2;
mod bk2_link;
mod bk2_notes;
mod cheats;
mod common;
mod compat_styles;
mod container;
mod debugger;
mod editor;
mod editor_link;
mod forms;
mod link;
mod movie;
mod parser_props;
mod patch_props;
mod rewind;
mod sandbox;
mod script_files;
mod shipped_scripts;
mod statefile;
