//! Error types.

use thiserror::Error;

/// Why an arena could not be reserved.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// The capacity is below the minimum (64 KiB) or above the maximum (4 GiB minus a page).
    #[error("arena capacity {0} is out of range (64 KiB ..= 4 GiB - 4 KiB)")]
    BadCapacity(usize),
    /// The fixed address is not page-aligned, or the kernel would not map there.
    #[error("cannot map the arena at fixed address {0:#x}")]
    BadAddress(usize),
    /// `mmap` failed.
    #[error("cannot reserve the arena: {0}")]
    Map(#[source] std::io::Error),
}

/// Errors of a [`Vm`](crate::Vm) operation. The VM stays usable after every one of them.
#[derive(Debug, Error)]
pub enum Error {
    /// The arena could not be reserved.
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// `lua_newstate` failed: the arena is too small for an empty state.
    #[error("cannot create the Lua state: arena too small")]
    StateCreation,
    /// A chunk did not compile.
    #[error("syntax error: {0}")]
    Syntax(String),
    /// A precompiled (binary) chunk was offered; only source text is loaded.
    #[error("binary chunks are refused")]
    BinaryChunk,
    /// A Lua error (message with traceback when available).
    #[error("{0}")]
    Runtime(String),
    /// The arena is exhausted ("not enough memory").
    #[error("not enough memory")]
    Memory,
    /// The instruction budget of one host call ran out.
    #[error("instruction budget exceeded ({0} instructions)")]
    Budget(u64),
    /// The message handler itself failed.
    #[error("error in error handling: {0}")]
    ErrorHandling(String),
    /// The named global is not a function.
    #[error("`{0}` is not a function")]
    NotAFunction(String),
    /// No coroutine of that name was started, or it cannot be resumed.
    #[error("no resumable coroutine named `{0}`")]
    NoCoroutine(String),
    /// A name or chunk name contains a NUL byte.
    #[error("name contains a NUL byte")]
    BadName,
    /// The snapshot was taken from another VM.
    #[error("snapshot belongs to another VM")]
    ForeignSnapshot,
    /// A portable image could not be made or restored.
    #[error(transparent)]
    Image(#[from] crate::portable::ImageError),
}

/// Errors decoding a snapshot diff or keyframe.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CodecError {
    /// The data is truncated, malformed, or fails its integrity check (it was not produced by
    /// this process, or was corrupted).
    #[error("corrupt or foreign snapshot encoding")]
    Corrupt,
    /// The diff links two snapshots, and the target snapshot is neither of them.
    #[error("diff does not apply to this snapshot")]
    WrongBase,
    /// Keyframe decoding was given a diff, or diff application a keyframe.
    #[error("wrong kind of encoding (keyframe vs diff)")]
    WrongKind,
    /// The two snapshots come from different VMs.
    #[error("snapshots belong to different VMs")]
    ForeignSnapshot,
}
