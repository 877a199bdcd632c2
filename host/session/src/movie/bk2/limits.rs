//! The bounds a `.bk2` must stay within to be read: what keeps a damaged or hostile archive
//! from taking unbounded memory or time.

/// Refuse an archive entry larger than this, uncompressed (64 MiB).
pub const MAX_ENTRY_BYTES: u64 = 64 << 20;
/// Refuse an input log of more frames than this (about 46 hours at 59.7 frames a second).
pub const MAX_FRAMES: usize = 10_000_000;
/// Refuse an archive of more entries than this (a movie has about ten).
pub const MAX_ENTRIES: usize = 1000;
/// Refuse an input-log frame line longer than this (a Game Boy line is 11 to 18 characters).
pub const MAX_LINE_BYTES: usize = 256;
