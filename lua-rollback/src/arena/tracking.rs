//! Page-write tracking with Linux's userfaultfd write protection in asynchronous mode
//! (Linux 6.7+): the arena is registered and write-protected once; the first write to a
//! protected page then just drops its protection, in the kernel, with no signal and no
//! handler thread. `PAGEMAP_SCAN` on `/proc/self/pagemap` lists the pages that lost it and
//! protects them again, atomically. Unprivileged processes get it with `UFFD_USER_MODE_ONLY`.
//! Anything unsupported — another OS, an older kernel, a sandbox refusing the calls — makes
//! [`Tracker::new`] return `None`, and the caller compares every page instead.
//!
//! Exactness: a page that was written since the last scan covering it is always listed (the
//! kernel keeps the protection bit through swapping and migration, and writes by this
//! process — Lua's and `restore`'s alike — all go through the protection). A listed page may
//! hold the same bytes as before; that costs a compare, never a wrong diff.
#![cfg_attr(not(target_os = "linux"), allow(dead_code))]
#![expect(unsafe_code, reason = "system calls on the arena's mapping")]

use std::ffi::c_void;
use std::ops::Range;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

const UFFD_API: u64 = 0xAA;
const UFFD_USER_MODE_ONLY: libc::c_int = 1;
const UFFD_FEATURE_WP_UNPOPULATED: u64 = 1 << 13;
const UFFD_FEATURE_WP_ASYNC: u64 = 1 << 15;
const UFFDIO_REGISTER_MODE_WP: u64 = 1 << 1;
const UFFDIO_WRITEPROTECT_MODE_WP: u64 = 1;
/// `_IOWR(0xAA, 0x3F, struct uffdio_api)`.
const UFFDIO_API: u64 = 0xC018_AA3F;
/// `_IOWR(0xAA, 0x00, struct uffdio_register)`.
const UFFDIO_REGISTER: u64 = 0xC020_AA00;
/// `_IOWR(0xAA, 0x06, struct uffdio_writeprotect)`.
const UFFDIO_WRITEPROTECT: u64 = 0xC018_AA06;
/// `_IOWR('f', 16, struct pm_scan_arg)`.
const PAGEMAP_SCAN: u64 = 0xC060_6610;
const PM_SCAN_WP_MATCHING: u64 = 1;
const PM_SCAN_CHECK_WPASYNC: u64 = 1 << 1;
const PAGE_IS_WRITTEN: u64 = 1 << 1;

#[repr(C)]
struct UffdioApi {
    api: u64,
    features: u64,
    ioctls: u64,
}

#[repr(C)]
struct UffdioRegister {
    start: u64,
    len: u64,
    mode: u64,
    ioctls: u64,
}

#[repr(C)]
struct UffdioWriteprotect {
    start: u64,
    len: u64,
    mode: u64,
}

#[repr(C)]
struct PmScanArg {
    size: u64,
    flags: u64,
    start: u64,
    end: u64,
    walk_end: u64,
    vec: u64,
    vec_len: u64,
    max_pages: u64,
    category_inverted: u64,
    category_mask: u64,
    category_anyof_mask: u64,
    return_mask: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct PageRegion {
    start: u64,
    end: u64,
    categories: u64,
}

/// The userfaultfd and pagemap descriptors of one arena's tracking.
pub(super) struct Tracker {
    /// Kept open: closing it would drop the registration.
    _uffd: OwnedFd,
    pagemap: OwnedFd,
    regions: Vec<PageRegion>,
}

/// `ioctl` with a request number of either libc flavour.
unsafe fn ioctl<T>(fd: libc::c_int, request: u64, arg: *mut T) -> libc::c_int {
    // SAFETY: forwarded: `arg` points to the structure `request` expects.
    unsafe { libc::ioctl(fd, request as _, arg.cast::<c_void>()) }
}

impl Tracker {
    /// Register and write-protect `[base, base + len)` (the whole mapping of an arena).
    #[cfg(target_os = "linux")]
    pub(super) fn new(base: *mut u8, len: usize) -> Option<Tracker> {
        // SAFETY: userfaultfd takes flags only; the descriptor it returns is owned here.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_userfaultfd,
                libc::O_CLOEXEC | libc::O_NONBLOCK | UFFD_USER_MODE_ONLY,
            )
        };
        let fd = libc::c_int::try_from(fd).ok().filter(|&fd| fd >= 0)?;
        // SAFETY: `fd` is a fresh descriptor nothing else owns.
        let uffd = unsafe { OwnedFd::from_raw_fd(fd) };
        let features = UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED;
        let mut api = UffdioApi {
            api: UFFD_API,
            features,
            ioctls: 0,
        };
        let range = (base as u64, len as u64);
        let mut register = UffdioRegister {
            start: range.0,
            len: range.1,
            mode: UFFDIO_REGISTER_MODE_WP,
            ioctls: 0,
        };
        let mut protect = UffdioWriteprotect {
            start: range.0,
            len: range.1,
            mode: UFFDIO_WRITEPROTECT_MODE_WP,
        };
        // SAFETY: each ioctl gets the structure its request number names, alive across
        // the call; the range is the arena's own private anonymous mapping, so
        // protecting it affects no other memory; the open uses a NUL-terminated literal.
        let pagemap = unsafe {
            if ioctl(uffd.as_raw_fd(), UFFDIO_API, &raw mut api) != 0
                || api.features & features != features
                || ioctl(uffd.as_raw_fd(), UFFDIO_REGISTER, &raw mut register) != 0
                || ioctl(uffd.as_raw_fd(), UFFDIO_WRITEPROTECT, &raw mut protect) != 0
            {
                return None;
            }
            let pm = libc::open(
                c"/proc/self/pagemap".as_ptr(),
                libc::O_RDONLY | libc::O_CLOEXEC,
            );
            if pm < 0 {
                return None;
            }
            OwnedFd::from_raw_fd(pm)
        };
        let mut t = Tracker {
            _uffd: uffd,
            pagemap,
            regions: vec![PageRegion::default(); 256],
        };
        // Check that scanning works before relying on it.
        let mut probe = Vec::new();
        t.take_written(base, 0, &mut probe).then_some(t)
    }

    /// Page-write tracking exists only on Linux.
    #[cfg(not(target_os = "linux"))]
    pub(super) fn new(_base: *mut u8, _len: usize) -> Option<Tracker> {
        None
    }

    /// Append the written pages among `[base, base + len)` to `out` as byte ranges from
    /// `base`, protecting them again. False if a scan fails.
    pub(super) fn take_written(
        &mut self,
        base: *mut u8,
        len: usize,
        out: &mut Vec<Range<usize>>,
    ) -> bool {
        let start = base as u64;
        let end = start + len.next_multiple_of(4096) as u64;
        let mut at = start;
        while at < end {
            let mut arg = PmScanArg {
                size: size_of::<PmScanArg>() as u64,
                flags: PM_SCAN_WP_MATCHING | PM_SCAN_CHECK_WPASYNC,
                start: at,
                end,
                walk_end: 0,
                vec: self.regions.as_mut_ptr() as u64,
                vec_len: self.regions.len() as u64,
                max_pages: 0,
                category_inverted: 0,
                category_mask: PAGE_IS_WRITTEN,
                category_anyof_mask: 0,
                return_mask: PAGE_IS_WRITTEN,
            };
            // SAFETY: PAGEMAP_SCAN reads `arg` and writes at most `vec_len` regions into
            // `self.regions`, which outlives the call; the range is inside the arena's
            // mapping (`len` is at most its capacity, rounded up to a page).
            let n = unsafe { ioctl(self.pagemap.as_raw_fd(), PAGEMAP_SCAN, &raw mut arg) };
            let Ok(n) = usize::try_from(n) else {
                return false;
            };
            if n > self.regions.len() || arg.walk_end <= at || arg.walk_end > end {
                return false;
            }
            for r in &self.regions[..n] {
                if r.start < at || r.end > arg.walk_end || r.start >= r.end {
                    return false;
                }
                out.push((r.start - start) as usize..(r.end - start) as usize);
            }
            at = arg.walk_end;
        }
        true
    }
}
