//! What work RAM, high RAM and OAM hold at power-on: [`RamInit`].
//!
//! Static RAM powers up with each cell settling to whatever its transistors favour, so a DMG's
//! WRAM, HRAM and OAM are not all zeros, and what is in them differs from console to console
//! (and a little from one power-on to the next). It is not white noise either: dumps of
//! DMG-CPU B consoles show structure that depends on the address. This module follows
//! SameBoy's approximation for the DMG-CPU B (`reset_ram` in its `Core/gb.c`, from dumps of
//! real consoles), drawn from a 64-bit seed with SplitMix64 so that a seed always gives the
//! same bytes:
//! - WRAM: in each 512-byte stretch, the first 256 bytes lean towards 1 bits (each byte the
//!   OR of two random bytes: a bit is 1 with probability 3/4) and the next 256 towards 0 bits
//!   (the AND of two: 1 with probability 1/4).
//! - HRAM: odd addresses lean strongly towards 1 (OR of three random bytes, 7/8 per bit),
//!   even addresses towards 0 (AND of three, 1/8).
//! - OAM: one 8-byte pattern repeated over all 160 bytes; bytes 2, 3, 6 and 7 of it lean
//!   towards 0 (AND of three), bytes 0, 1, 4 and 5 towards 1 (OR of three).
//!
//! The boot ROM clears VRAM but leaves these three alone (it only uses a few bytes of HRAM as
//! its stack, which is not modelled: the stack bytes keep the pattern), so the same pattern
//! applies whether the machine starts with a boot ROM ([`crate::Gb::with_boot_rom`]) or past
//! it ([`crate::Gb::new`]). Cartridge RAM, wave RAM and the I/O registers are not affected.
//! The seed is a start parameter like the ROM: a host that wants runs to repeat (rewind,
//! movies, the sync test) records it with them.

/// How WRAM, HRAM and OAM are filled at power-on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RamInit {
    /// All zeros: what many emulators do, and what this core did before the pattern.
    Zero,
    /// The DMG-like pattern of the module docs, drawn from this seed.
    Pattern(u64),
}

impl RamInit {
    /// The seed of the default pattern ([`RamInit::default`]), so that a machine built
    /// without a choice is the same on every run. Any seed gives a plausible DMG; this one
    /// also agrees with the one power-on byte the shared test ROMs read on hardware:
    /// gbmicrotest's `poweron_oam_*` read 0xFE35 before anything writes OAM and their DMG did
    /// not hold 0xFF there (a third of the seeds put 0xFF there, which would pass the tests
    /// that expect a blocked read for the wrong reason).
    pub const DEFAULT_SEED: u64 = 0x6762_686F_7374_0003;
}

impl Default for RamInit {
    /// The hardware-like pattern from [`RamInit::DEFAULT_SEED`].
    fn default() -> Self {
        RamInit::Pattern(RamInit::DEFAULT_SEED)
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator with good output from any seed,
/// zero included.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn byte(&mut self) -> u8 {
        self.next().to_le_bytes()[0]
    }

    /// A byte whose bits are 1 with probability 1 − 2^−n.
    fn or_of(&mut self, n: u32) -> u8 {
        (0..n).fold(0, |acc, _| acc | self.byte())
    }

    /// A byte whose bits are 1 with probability 2^−n.
    fn and_of(&mut self, n: u32) -> u8 {
        (0..n).fold(0xFF, |acc, _| acc & self.byte())
    }
}

/// Fill the power-on contents of WRAM (8 KiB), HRAM (127 bytes) and OAM (160 bytes).
pub(crate) fn fill(init: RamInit, wram: &mut [u8], hram: &mut [u8], oam: &mut [u8]) {
    let seed = match init {
        RamInit::Zero => {
            wram.fill(0);
            hram.fill(0);
            oam.fill(0);
            return;
        }
        RamInit::Pattern(seed) => seed,
    };
    let mut rng = SplitMix64(seed);
    for (i, b) in wram.iter_mut().enumerate() {
        *b = if i & 0x100 == 0 {
            rng.or_of(2)
        } else {
            rng.and_of(2)
        };
    }
    for (i, b) in hram.iter_mut().enumerate() {
        // HRAM starts at 0xFF80, so its index has the parity of the address.
        *b = if i & 1 == 1 {
            rng.or_of(3)
        } else {
            rng.and_of(3)
        };
    }
    let row: [u8; 8] = std::array::from_fn(|i| {
        if i & 2 == 0 {
            rng.or_of(3)
        } else {
            rng.and_of(3)
        }
    });
    for (i, b) in oam.iter_mut().enumerate() {
        *b = row[i % 8];
    }
}

/// Fill the CGB's power-on work RAM (32 KiB) and HRAM (127 bytes) (SameBoy's approximation
/// for the CPU CGB C: in each 4 KiB, bytes whose address has exactly one of bits 3 and 11 set
/// hold 0, the others lean strongly towards 1, the OR of five random bytes; HRAM uniform).
/// OAM is not filled: the CGB boot ROM clears it. Bank 2 of work RAM is cleared too: the boot
/// ROM uses it.
pub(crate) fn fill_cgb(init: RamInit, wram: &mut [u8], hram: &mut [u8]) {
    let seed = match init {
        RamInit::Zero => {
            wram.fill(0);
            hram.fill(0);
            return;
        }
        RamInit::Pattern(seed) => seed,
    };
    let mut rng = SplitMix64(seed);
    for (i, b) in wram.iter_mut().enumerate() {
        *b = match i & 0x808 {
            0x800 | 0x008 => 0,
            _ => rng.or_of(5),
        };
    }
    if let Some(bank2) = wram.get_mut(0x2000..0x3000) {
        bank2.fill(0);
    }
    for b in hram.iter_mut() {
        *b = rng.byte();
    }
}

/// Fill the CGB's object colour RAM (OCPD's 64 bytes) as its boot ROM leaves it in CGB mode:
/// not initialised, power-on noise (uniform random bytes from the seed), except the first byte
/// (OBJ0 colour 0's low byte), which it sets to 0x00 (Pan Docs "LCD Color Palettes": "the boot
/// ROM leaves all object colors uninitialized (and thus somewhat random/unreliable), aside from
/// setting the first byte of OBJ0 color #0 to $00"; Gambatte's power-on state, taken from a
/// CGB's dump after boot, has varied bytes there too). Zeros for [`RamInit::Zero`].
pub(crate) fn fill_obj_palettes(init: RamInit, obj: &mut [u8; 64]) {
    match init {
        RamInit::Zero => obj.fill(0),
        RamInit::Pattern(seed) => {
            // A stream of its own, so the work RAM pattern of a seed stays what it was.
            let mut rng = SplitMix64(seed ^ 0x4F43_5044_4F43_5044);
            for b in obj.iter_mut() {
                *b = rng.byte();
            }
            obj[0] = 0x00;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(init: RamInit) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
        let (mut w, mut h, mut o) = (vec![0xAA; 0x2000], vec![0xAA; 0x7F], vec![0xAA; 0xA0]);
        fill(init, &mut w, &mut h, &mut o);
        (w, h, o)
    }

    fn ones(bytes: &[u8]) -> f64 {
        let bits: u32 = bytes.iter().map(|b| b.count_ones()).sum();
        f64::from(bits) / (bytes.len() as f64 * 8.0)
    }

    #[test]
    fn object_colours_are_noise_but_the_first_byte() {
        let mut a = [0xAA; 64];
        fill_obj_palettes(RamInit::default(), &mut a);
        let mut b = [0; 64];
        fill_obj_palettes(RamInit::default(), &mut b);
        assert_eq!(a, b, "the same seed, the same bytes");
        assert_eq!(a[0], 0x00);
        let distinct: std::collections::BTreeSet<u8> = a.iter().copied().collect();
        assert!(distinct.len() > 32, "varied bytes: {a:02X?}");
        let white = a.chunks(2).filter(|c| c == &[0xFF, 0x7F]).count();
        assert!(white < 4, "not white");
        fill_obj_palettes(RamInit::Zero, &mut b);
        assert_eq!(b, [0; 64]);
    }

    #[test]
    fn zero_is_zero() {
        let (w, h, o) = filled(RamInit::Zero);
        assert!(w.iter().chain(&h).chain(&o).all(|&b| b == 0));
    }

    #[test]
    fn a_seed_always_gives_the_same_bytes_and_seeds_differ() {
        assert_eq!(filled(RamInit::Pattern(7)), filled(RamInit::Pattern(7)));
        assert_ne!(filled(RamInit::Pattern(7)).0, filled(RamInit::Pattern(8)).0);
        assert_eq!(RamInit::default(), RamInit::Pattern(RamInit::DEFAULT_SEED));
        // Pinned: the default pattern is part of what every default run computes.
        let (w, h, o) = filled(RamInit::default());
        assert_eq!(
            (&w[..4], &w[0x100..0x104], &h[..4], &o[..8]),
            (
                &[0xBF, 0x7D, 0x14, 0xB9][..],
                &[0x28, 0x01, 0x60, 0x0C][..],
                &[0x01, 0xDF, 0x00, 0xFB][..],
                &[0xFB, 0xEF, 0x00, 0x10, 0xFF, 0x0F, 0x00, 0x00][..],
            )
        );
        assert_ne!(
            o[0x35], 0xFF,
            "gbmicrotest's DMG: 0xFE35 is not 0xFF at power-on"
        );
    }

    #[test]
    fn the_pattern_has_the_dmg_structure() {
        for seed in [0, 1, RamInit::DEFAULT_SEED, u64::MAX] {
            let (w, h, o) = filled(RamInit::Pattern(seed));
            let (high, low): (Vec<u8>, Vec<u8>) = {
                let mut high = Vec::new();
                let mut low = Vec::new();
                for (i, &b) in w.iter().enumerate() {
                    if i & 0x100 == 0 {
                        high.push(b)
                    } else {
                        low.push(b)
                    }
                }
                (high, low)
            };
            assert!((ones(&high) - 0.75).abs() < 0.03, "WRAM high blocks");
            assert!((ones(&low) - 0.25).abs() < 0.03, "WRAM low blocks");
            let odd: Vec<u8> = h.iter().skip(1).step_by(2).copied().collect();
            let even: Vec<u8> = h.iter().step_by(2).copied().collect();
            assert!(ones(&odd) > 0.75 && ones(&even) < 0.25, "HRAM parity");
            assert!(
                o.chunks(8).all(|row| row == &o[..8]),
                "OAM repeats every 8 bytes"
            );
        }
    }
}
