//! `gb-core`'s integration tests, in one test binary (the conformance harness is its own, one
//! trial per ROM): instruction semantics and timing, frames and audio against recorded hashes,
//! BESS, determinism, random programs, boot and joypad, the LCD, watchpoints.

// The tests are the host around the core: they read ROMs and references and write reports and
// pictures, so the core's ban on files and the environment (host/core/clippy.toml) is lifted
// here, for the test binary only.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

mod audio_filter;
mod audio_hashes;
mod bess;
mod boot_and_joypad;
mod cgb;
mod cpu_instructions;
mod determinism;
mod frame_hashes;
mod frame_rule;
mod lcd;
mod link;
mod no_render;
mod pcm;
mod random_programs;
mod serial;
mod still_lines;
mod watch;
