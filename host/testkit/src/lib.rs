//! `gb-testkit`: what the test suites of gbhost's crates share. Not shipped (a dev-dependency
//! only).
//!
//! - [`roms`]: where the shared test ROMs are, the `CI=true` rule (a missing ROM folder fails
//!   instead of skipping), frames as PNG files in the reference palette, FNV-1a for the
//!   recorded hash tables;
//! - [`arch`]: the architecture checks (each crate's module import graph and its circles; the
//!   workspace members), run by this crate's own tests against the whole repository;
//! - [`docs`]: what the docs checks read (the paths `docs/ARCHITECTURE.md` names, each
//!   crate's folders, Markdown links and heading anchors).

pub mod arch;
pub mod docs;
pub mod roms;

pub use roms::{
    LEVELS, ci, fnv1a, read_png_rgb, rom_root, shared_rom, shared_rom_bytes, write_frame_png,
    write_rgb_png,
};
