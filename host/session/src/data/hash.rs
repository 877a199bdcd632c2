//! The hashes that name things across processes: FNV-1a 64 over bytes, and [`SourceHash`],
//! the version of a script's source.

/// FNV-1a over bytes.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_iter(bytes.iter().copied())
}

/// FNV-1a over bytes made on the way (no buffer for them).
pub fn fnv1a_iter(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A hash of a script's source text (FNV-1a, 64-bit): names a version of a script.
pub type SourceHash = u64;

/// The FNV-1a hash of `text`.
pub fn source_hash(text: &str) -> SourceHash {
    fnv1a(text.as_bytes())
}
