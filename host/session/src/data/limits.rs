//! The bounds every file the session reads is held to, so that frame arithmetic on hostile
//! input never overflows and no list grows without end.

/// Largest frame number a movie or state may name (about 9,000 years of play): keeps every
/// frame computation far from overflow on hostile files.
pub const MAX_FRAME: u64 = 1 << 44;
/// Most frames a movie lists frame by frame (`Movie::frame_buttons`; about 46 hours; `.bk2`
/// readers stop at 10 million lines too).
pub const MAX_FRAME_LIST: u64 = 10_000_000;
