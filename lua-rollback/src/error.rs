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
    Image(#[from] ImageError),
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

/// Why a portable image cannot be made or restored.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ImageError {
    /// The MAC does not verify: the image was sealed with another key, or altered.
    #[error("the script image is not sealed with this user's key (made elsewhere, or altered)")]
    Foreign,
    /// Malformed bytes (only reachable for images sealed with the key, or while checking).
    #[error("the script image is corrupt: {0}")]
    Corrupt(&'static str),
    /// Another image format or object layout.
    #[error(
        "the script image has format {found} (layout {layout:#x}), which this build does not \
         read (another version of gbhost made it)"
    )]
    Version {
        /// The image's format version.
        found: u16,
        /// The image's layout id.
        layout: u64,
    },
    /// The VM holds something no other process could restore.
    #[error("the VM cannot be saved portably: {0}")]
    Unportable(String),
    /// The importing VM is not mapped where the image's was, or not with the same capacity.
    #[error(
        "the script image needs an arena at {address:#x} of {capacity} bytes; this VM's is at \
         {have_address:#x} with {have_capacity} bytes"
    )]
    Placement {
        /// The image's arena address.
        address: u64,
        /// The image's arena capacity.
        capacity: u64,
        /// The VM's arena address.
        have_address: u64,
        /// The VM's arena capacity.
        have_capacity: u64,
    },
    /// The image names code this build does not have.
    #[error("the script image refers to `{0}`, which this build does not have")]
    UnknownCode(String),
    /// The catalog of this process's code could not be built.
    #[error("cannot list this build's Lua functions: {0}")]
    Catalog(String),
}
