//! The OAM scan's usual case, from a table: while OAM and the object size stay as they are
//! (most games change OAM once a frame, by one OAM DMA in VBlank), the objects on each line
//! are found once for all lines instead of testing 40 entries on every line.
//!
//! Derived data, not in the state image: the table is checked against OAM's bytes before
//! each use, so it can never disagree with OAM (debug builds also compare it with the
//! entry-by-entry scan on every line).

/// Lines 0-153.
const LINES: usize = 154;

/// The objects on each line for one OAM image and object size.
#[derive(Clone, Debug)]
pub(super) struct ScanCache {
    /// The OAM the table was (or is to be) made from.
    oam: [u8; 0xA0],
    /// The object height (8 or 16) it was made for; 0: nothing seen yet.
    height: u8,
    /// Whether `lines` holds the table for `oam` and `height`.
    built: bool,
    /// Up to 10 OAM indices per line, in OAM order.
    lines: [[u8; 10]; LINES],
    /// How many entries of each line's list are used.
    counts: [u8; LINES],
}

impl Default for ScanCache {
    fn default() -> Self {
        ScanCache {
            oam: [0; 0xA0],
            height: 0,
            built: false,
            lines: [[0; 10]; LINES],
            counts: [0; LINES],
        }
    }
}

impl ScanCache {
    /// The OAM indices of up to 10 objects covering `line` (0-153) with `height`, in OAM
    /// order, as the scan of OAM as it is finds them; `None` when the table does not apply
    /// (OAM or the size changed since the last call: the table is made only once they hold
    /// still for two scans, so OAM rewritten on every line costs one compare, not a table).
    #[inline]
    pub(super) fn objects(
        &mut self,
        oam: &[u8; 0xA0],
        height: u8,
        line: u8,
    ) -> Option<([u8; 10], usize)> {
        if self.height != height || self.oam != *oam {
            self.oam = *oam;
            self.height = height;
            self.built = false;
            return None;
        }
        if !self.built {
            self.build();
        }
        let l = usize::from(line);
        if l >= LINES {
            return None;
        }
        Some((self.lines[l], usize::from(self.counts[l])))
    }

    /// Make the table: each object covers the lines L with Y <= L + 16 < Y + height.
    #[cold]
    fn build(&mut self) {
        // Unused entries are 0, as the scan leaves them (they are in the state image).
        self.lines = [[0; 10]; LINES];
        self.counts = [0; LINES];
        for i in 0..40 {
            let first = i32::from(self.oam[i * 4]) - 16;
            let last = first + i32::from(self.height) - 1;
            for l in first.max(0)..=last.min(LINES as i32 - 1) {
                let l = l as usize;
                let n = usize::from(self.counts[l]);
                if n < 10 {
                    self.lines[l][n] = i as u8;
                    self.counts[l] += 1;
                }
            }
        }
        self.built = true;
    }
}
