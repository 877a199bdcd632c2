//! The DMG OAM corruption bug (Pan Docs "OAM Corruption Bug"): a CPU access or IDU address in
//! 0xFE00-0xFEFF during the OAM scan corrupts the 8-byte row the scan reads.

use super::{HEIGHT, Ppu};

impl Ppu {
    /// The OAM row (0-19) the OAM scan reads at `now`, if it is running (Pan Docs: "OAM
    /// Corruption Bug": one 8-byte row per M-cycle during mode 2).
    pub fn oam_scan_row(&self, now: u64) -> Option<usize> {
        if !self.lcd_on() || self.first_line || self.line >= HEIGHT as u8 {
            return None;
        }
        // The scan reads row 0 in the M-cycle that starts at S.
        let dot = now.checked_sub(self.line_start)?;
        if dot >= 80 {
            return None;
        }
        Some((dot / 4) as usize)
    }

    /// The DMG OAM corruption after a CPU write (or IDU address) during the OAM scan: the row's
    /// first word becomes `((a ^ c) & (b ^ c)) ^ c` and its other words copy the row before.
    pub fn oam_bug_write(&mut self, row: usize) {
        self.oam_bug_corrupt(row, |a, b, c| ((a ^ c) & (b ^ c)) ^ c);
    }

    /// The DMG OAM corruption after a CPU read during the OAM scan: `b | (a & c)`.
    pub fn oam_bug_read(&mut self, row: usize) {
        self.oam_bug_corrupt(row, |a, b, c| b | (a & c));
    }

    /// A read while the IDU changes the register (read and write in one M-cycle).
    pub fn oam_bug_read_idu(&mut self, row: usize) {
        // (`oam_bug_read` below marks OAM changed for the still-line rule.)
        if (4..19).contains(&row) {
            // Word operations are bitwise, so they work byte by byte.
            for byte in 0..2 {
                let a = self.oam[(row - 2) * 8 + byte];
                let b = self.oam[(row - 1) * 8 + byte];
                let c = self.oam[row * 8 + byte];
                let d = self.oam[(row - 1) * 8 + 4 + byte];
                self.oam[(row - 1) * 8 + byte] = (b & (a | c | d)) | (a & c & d);
            }
            let (prev, rest) = self.oam.split_at_mut(row * 8);
            let source: [u8; 8] = prev[(row - 1) * 8..row * 8].try_into().unwrap_or([0; 8]);
            rest[..8].copy_from_slice(&source);
            prev[(row - 2) * 8..(row - 1) * 8].copy_from_slice(&source);
        }
        self.oam_bug_read(row);
    }

    fn oam_bug_corrupt(&mut self, row: usize, first: impl Fn(u8, u8, u8) -> u8) {
        self.touch();
        if row == 0 || row >= 20 {
            return;
        }
        let r = row * 8;
        let p = r - 8;
        for byte in 0..2 {
            let a = self.oam[r + byte];
            let b = self.oam[p + byte];
            let c = self.oam[p + 4 + byte];
            self.oam[r + byte] = first(a, b, c);
        }
        self.oam.copy_within(p + 2..p + 8, r + 2);
    }
}
