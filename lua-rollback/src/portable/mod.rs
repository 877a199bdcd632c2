//! Portable images: a VM's whole state as bytes another process can restore exactly.
//!
//! A snapshot ([`Snapshot`](crate::Snapshot)) holds raw arena bytes, meaningful only in the
//! process that made it: they hold the addresses of this process's code. A *portable image*
//! holds the same bytes made independent of the process:
//!
//! * **Arena pointers stay as they are**: the arena of a VM meant to move between processes
//!   is mapped at a fixed address ([`VmConfig::window_slot`](crate::VmConfig::window_slot) or
//!   [`VmConfig::fixed_address`](crate::VmConfig::fixed_address)); the image records it and
//!   the importing VM must be mapped at the same address with the same capacity.
//! * **Pointers out of the arena become names**: every C function, continuation, hook and the
//!   allocator (and Lua's static empty table node) is replaced by an index into the image's
//!   table of names ([`catalog`]); the control block and the allocator context become zero and
//!   are set to the importing VM's own. The walk that finds them (`heap.rs`) knows every
//!   object type of Lua 5.4.9 and every field that can leave the arena.
//! * **Canonical**: bytes that differ between processes without meaning (stale payloads of
//!   `nil`/booleans, dead stack slots, spare call records, the C API's string cache) are
//!   zeroed or reset, so two processes in the same state make the same image, byte for byte
//!   ([`Vm::image_hash`](crate::Vm::image_hash) hashes it).
//! * **Sealed**: an image ends with a BLAKE3 MAC under an [`ImageKey`] the host keeps per user.
//!   Loading an image is loading a heap: nothing short of validating every object could make
//!   a hostile one safe, so an image is restored only if its MAC verifies under the caller's
//!   key (one the image was made with). Everything is checked before the MAC too: a damaged
//!   or hostile image is refused with an error, never read out of bounds.
//!
//! Layout (little-endian):
//!
//! ```text
//! "LRPI" u16 format  u16 0  u64 layout id  u64 arena address  u64 capacity  u64 main thread
//! u64 arena length  u32 name count  (u16 length, name bytes)*  u64 payload length  payload
//! [32] MAC: BLAKE3 keyed hash of everything before
//! ```
//!
//! The payload is the canonical arena bytes, zero-run coded ([`crate::codec`]).

pub(crate) mod catalog;
pub(crate) mod heap;

use std::collections::HashMap;

use crate::codec;
pub use crate::error::ImageError;
pub(crate) use catalog::Catalog;
use heap::{Ext, Heap};

/// Format version of portable images: bumped when the byte format or anything it depends on
/// (Lua's object layout, the allocator's metadata) changes.
pub const IMAGE_VERSION: u16 = 1;
/// Lua 5.4.9's object layout on 64-bit targets and this crate's allocator format: a later
/// build with the same value restores the images of an earlier one.
const LAYOUT_ID: u64 = 0x4c55_4135_3409_0001;
const MAGIC: [u8; 4] = *b"LRPI";
const MAC_LEN: usize = 32;

/// The key that seals portable images: keep one per user, secret (a file readable only by
/// them). Images sealed with another key are refused.
#[derive(Clone)]
pub struct ImageKey([u8; 32]);

impl ImageKey {
    /// A key from its 32 bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> ImageKey {
        ImageKey(bytes)
    }

    /// This key bound to `context` (what the image is of, e.g. a game and a script): an image
    /// sealed with the bound key verifies only under the same key bound to the same context,
    /// so an image cannot be passed off as another game's or another script's.
    pub fn bind(&self, context: &[u8]) -> ImageKey {
        let mut h = blake3::Hasher::new_keyed(&self.0);
        h.update(b"lua-rollback image context\0");
        h.update(context);
        ImageKey(*h.finalize().as_bytes())
    }
}

impl std::fmt::Debug for ImageKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ImageKey(..)")
    }
}

/// What an image's header says (readable without the key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageInfo {
    /// Address the importing VM's arena must be mapped at.
    pub address: usize,
    /// Capacity the importing VM's arena must have.
    pub capacity: usize,
    /// Arena bytes the image holds.
    pub len: usize,
}

/// What the image code needs to know of a VM.
pub(crate) struct VmParts {
    pub(crate) base: u64,
    pub(crate) capacity: u64,
    pub(crate) main: u64,
    pub(crate) control: u64,
    pub(crate) alloc_ud: u64,
    /// Raw host functions registered at build time: name and address.
    pub(crate) raw: Vec<(String, u64)>,
}

impl VmParts {
    fn code_name(&self, cat: &Catalog, addr: u64) -> Result<String, ImageError> {
        if let Some((n, _)) = self.raw.iter().find(|(_, a)| *a == addr) {
            return Ok(format!("raw:{n}"));
        }
        cat.name(addr)
            .map(str::to_owned)
            .ok_or_else(|| ImageError::Unportable(format!("code at {addr:#x} that has no name")))
    }

    fn code_address(&self, cat: &Catalog, name: &str) -> Result<u64, ImageError> {
        if let Some(raw) = name.strip_prefix("raw:") {
            if let Some((_, a)) = self.raw.iter().find(|(n, _)| n == raw) {
                return Ok(*a);
            }
        } else if let Some(a) = cat.address(name) {
            return Ok(a);
        }
        Err(ImageError::UnknownCode(name.to_owned()))
    }
}

/// Canonicalise `bytes` (a snapshot of the VM `vm`) in place; returns the names of the code it
/// refers to, in order of first reference.
pub(crate) fn canonicalise(
    cat: &Catalog,
    vm: &VmParts,
    bytes: &mut [u8],
) -> Result<Vec<String>, ImageError> {
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<u64, u64> = HashMap::new();
    let mut heap = Heap {
        bytes,
        base: vm.base,
    };
    heap::walk(&mut heap, vm.main, &mut |heap, at, ext| {
        let v = match ext {
            Ext::Control | Ext::AllocUd => 0,
            Ext::Code | Ext::DummyNode => {
                let addr = heap.u64(at)?;
                if addr == 0 {
                    0
                } else if let Some(i) = index.get(&addr) {
                    *i
                } else {
                    if heap.contains(addr) {
                        return Err(ImageError::Unportable("code pointer into the arena".into()));
                    }
                    names.push(vm.code_name(cat, addr).map_err(|e| {
                        ImageError::Unportable(format!(
                            "{e} (field at arena offset {:#x}, {ext:?}; main {:#x})",
                            at - vm.base,
                            vm.main - vm.base
                        ))
                    })?);
                    index.insert(addr, names.len() as u64);
                    names.len() as u64
                }
            }
        };
        heap.set_u64(at, v)
    })?;
    Ok(names)
}

/// The portable image of a snapshot of `vm`, sealed with `key`.
pub(crate) fn export(
    cat: &Catalog,
    vm: &VmParts,
    mut bytes: Vec<u8>,
    key: &ImageKey,
) -> Result<Vec<u8>, ImageError> {
    let names = canonicalise(cat, vm, &mut bytes)?;
    let mut out = Vec::with_capacity(bytes.len() / 4);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&IMAGE_VERSION.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    for v in [LAYOUT_ID, vm.base, vm.capacity, vm.main, bytes.len() as u64] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(names.len() as u32).to_le_bytes());
    for n in &names {
        let n = &n.as_bytes()[..n.len().min(u16::MAX as usize)];
        out.extend_from_slice(&(n.len() as u16).to_le_bytes());
        out.extend_from_slice(n);
    }
    let mut payload = Vec::new();
    codec::encode(&[], &bytes, &mut payload);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&payload);
    let mac = blake3::keyed_hash(&key.0, &out);
    out.extend_from_slice(mac.as_bytes());
    Ok(out)
}

/// The hash of the canonical image of a snapshot of `vm` (the same in every process where the
/// VM is in the same state).
pub(crate) fn hash(cat: &Catalog, vm: &VmParts, mut bytes: Vec<u8>) -> Result<u64, ImageError> {
    let names = canonicalise(cat, vm, &mut bytes)?;
    let mut h = blake3::Hasher::new();
    for n in &names {
        h.update(&(n.len() as u64).to_le_bytes());
        h.update(n.as_bytes());
    }
    h.update(&bytes);
    let d = h.finalize();
    let mut b = [0; 8];
    b.copy_from_slice(&d.as_bytes()[..8]);
    Ok(u64::from_le_bytes(b))
}

/// A cursor over an image's bytes.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ImageError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|e| *e <= self.b.len())
            .ok_or(ImageError::Corrupt("truncated"))?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u16(&mut self) -> Result<u16, ImageError> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }

    fn u32(&mut self) -> Result<u32, ImageError> {
        let mut b = [0; 4];
        b.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64, ImageError> {
        let mut b = [0; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }
}

/// An image's fixed header.
struct Header {
    info: ImageInfo,
    main: u64,
}

fn header(r: &mut Reader<'_>) -> Result<Header, ImageError> {
    if r.take(4)? != MAGIC {
        return Err(ImageError::Corrupt("not a script image"));
    }
    let found = r.u16()?;
    r.u16()?;
    let layout = r.u64()?;
    if found != IMAGE_VERSION || layout != LAYOUT_ID {
        return Err(ImageError::Version { found, layout });
    }
    let address = r.u64()?;
    let capacity = r.u64()?;
    let main = r.u64()?;
    let len = r.u64()?;
    if len > capacity || capacity > u64::from(u32::MAX) {
        return Err(ImageError::Corrupt("arena length"));
    }
    Ok(Header {
        info: ImageInfo {
            address: usize::try_from(address).map_err(|_| ImageError::Corrupt("address"))?,
            capacity: capacity as usize,
            len: len as usize,
        },
        main,
    })
}

/// An image's body (without its MAC) taken apart.
struct Body<'a> {
    header: Header,
    /// The bytes before the payload: fixed header and names.
    head: &'a [u8],
    names: Vec<String>,
    /// The canonical arena bytes.
    arena: Vec<u8>,
}

/// Take an image's body apart, checking every length.
fn parse(body: &[u8]) -> Result<Body<'_>, ImageError> {
    let mut r = Reader { b: body, at: 0 };
    let header = header(&mut r)?;
    let count = r.u32()? as usize;
    let mut names = Vec::with_capacity(count.min(4096));
    for _ in 0..count {
        let n = r.u16()? as usize;
        names.push(String::from_utf8_lossy(r.take(n)?).into_owned());
    }
    let head = &body[..r.at];
    let plen = usize::try_from(r.u64()?).map_err(|_| ImageError::Corrupt("payload"))?;
    let payload = r.take(plen)?;
    if r.at != body.len() {
        return Err(ImageError::Corrupt("trailing bytes"));
    }
    let words = codec::encoded_words(payload).map_err(|_| ImageError::Corrupt("payload"))?;
    if words != codec::total_words(0, header.info.len) {
        return Err(ImageError::Corrupt("payload length"));
    }
    let mut arena = vec![0; header.info.len];
    codec::apply(&mut arena, payload).map_err(|_| ImageError::Corrupt("payload"))?;
    Ok(Body {
        header,
        head,
        names,
        arena,
    })
}

/// The header of an image, without checking its seal.
pub(crate) fn info(image: &[u8]) -> Result<ImageInfo, ImageError> {
    header(&mut Reader { b: image, at: 0 }).map(|h| h.info)
}

/// The body of `image` (without its MAC) if its seal verifies under `key`.
fn open<'a>(image: &'a [u8], key: &ImageKey) -> Result<&'a [u8], ImageError> {
    let body_len = image
        .len()
        .checked_sub(MAC_LEN)
        .ok_or(ImageError::Corrupt("truncated"))?;
    let (body, mac) = image.split_at(body_len);
    let mut expected = [0; MAC_LEN];
    expected.copy_from_slice(mac);
    // `blake3::Hash` compares in constant time.
    if blake3::keyed_hash(&key.0, body) != blake3::Hash::from_bytes(expected) {
        return Err(ImageError::Foreign);
    }
    Ok(body)
}

/// The header of `image` if its seal verifies under `key` and its format is this build's.
pub(crate) fn verify(image: &[u8], key: &ImageKey) -> Result<ImageInfo, ImageError> {
    header(&mut Reader {
        b: open(image, key)?,
        at: 0,
    })
    .map(|h| h.info)
}

/// Check `image`'s seal under `key`, decode it for the VM `vm`, and return the arena bytes to
/// restore (this process's addresses in place of names).
pub(crate) fn import(
    cat: &Catalog,
    vm: &VmParts,
    image: &[u8],
    key: &ImageKey,
) -> Result<Vec<u8>, ImageError> {
    let body = parse(open(image, key)?)?;
    let h = &body.header;
    if h.info.address as u64 != vm.base
        || h.info.capacity as u64 != vm.capacity
        || h.main != vm.main
    {
        return Err(ImageError::Placement {
            address: h.info.address as u64,
            capacity: h.info.capacity as u64,
            have_address: vm.base,
            have_capacity: vm.capacity,
        });
    }
    let addresses = body
        .names
        .iter()
        .map(|name| vm.code_address(cat, name))
        .collect::<Result<Vec<u64>, _>>()?;
    let mut bytes = body.arena;
    let mut heap = Heap {
        bytes: &mut bytes,
        base: vm.base,
    };
    heap::walk(&mut heap, vm.main, &mut |heap, at, ext| {
        let v = match ext {
            Ext::Control => vm.control,
            Ext::AllocUd => vm.alloc_ud,
            Ext::Code | Ext::DummyNode => match heap.u64(at)? {
                0 => 0,
                i => *usize::try_from(i - 1)
                    .ok()
                    .and_then(|i| addresses.get(i))
                    .ok_or(ImageError::Corrupt("a name index is out of range"))?,
            },
        };
        heap.set_u64(at, v)
    })?;
    Ok(bytes)
}

/// An image cut into its parts: everything before the payload, the canonical arena bytes, and
/// the MAC.
struct Parts<'a> {
    head: &'a [u8],
    arena: Vec<u8>,
    mac: &'a [u8],
}

/// Cut `image` into its parts (its seal is not checked here).
fn parts(image: &[u8]) -> Result<Parts<'_>, ImageError> {
    let body_len = image
        .len()
        .checked_sub(MAC_LEN)
        .ok_or(ImageError::Corrupt("truncated"))?;
    let body = parse(&image[..body_len])?;
    Ok(Parts {
        head: body.head,
        arena: body.arena,
        mac: &image[body_len..],
    })
}

/// `image` as a difference from `base` (another image, e.g. of the same VM some seconds
/// earlier): most of an arena does not change, so this is much smaller than the image.
/// [`image_from_delta`] with the same base gives `image` back, byte for byte.
pub fn image_delta(base: &[u8], image: &[u8]) -> Result<Vec<u8>, ImageError> {
    let b = parts(base)?;
    let i = parts(image)?;
    let mut out = Vec::new();
    out.extend_from_slice(&(i.head.len() as u64).to_le_bytes());
    out.extend_from_slice(i.head);
    codec::encode(&b.arena, &i.arena, &mut out);
    out.extend_from_slice(i.mac);
    Ok(out)
}

/// The image [`image_delta`] made `delta` from, given the same `base`. Nothing is trusted:
/// the result must still pass the seal check of a restore.
pub fn image_from_delta(base: &[u8], delta: &[u8]) -> Result<Vec<u8>, ImageError> {
    let b = parts(base)?;
    let mut r = Reader { b: delta, at: 0 };
    let head_len = usize::try_from(r.u64()?).map_err(|_| ImageError::Corrupt("delta"))?;
    let head = r.take(head_len)?;
    let info = header(&mut Reader { b: head, at: 0 })?.info;
    let rest = &delta[r.at..];
    let enc_len = rest
        .len()
        .checked_sub(MAC_LEN)
        .ok_or(ImageError::Corrupt("delta"))?;
    let (enc, mac) = rest.split_at(enc_len);
    let words = codec::encoded_words(enc).map_err(|_| ImageError::Corrupt("delta"))?;
    if words != codec::total_words(b.arena.len(), info.len) {
        return Err(ImageError::Corrupt("delta"));
    }
    let mut arena = b.arena;
    arena.resize(words * 8, 0);
    codec::apply(&mut arena, enc).map_err(|_| ImageError::Corrupt("delta"))?;
    if arena[info.len..].iter().any(|&x| x != 0) {
        return Err(ImageError::Corrupt("delta"));
    }
    arena.truncate(info.len);
    let mut out = head.to_vec();
    let mut payload = Vec::new();
    codec::encode(&[], &arena, &mut payload);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&payload);
    out.extend_from_slice(mac);
    Ok(out)
}
