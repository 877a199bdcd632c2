//! The serial port: SB (0xFF01) and SC (0xFF02) (Pan Docs: "Serial Data Transfer (Link Cable)").
//!
//! With the internal clock the port shifts one bit on each falling edge of bit 8 of the system
//! counter (8192 Hz), so a transfer's timing is aligned to DIV exactly as on hardware. No link
//! partner is emulated: the bits shifted in are 1s. Every byte the game starts sending is kept
//! in [`Serial::output`] for hosts (Blargg's tests print their results there).

/// Bit of the system counter whose falling edge clocks an internal-clock transfer.
const CLOCK_BIT: u16 = 1 << 8;
/// Most bytes kept in the output log before older ones are dropped.
const OUTPUT_CAP: usize = 1 << 16;

/// Serial port state.
#[derive(Clone, Debug)]
pub struct Serial {
    /// SB, the shift register.
    sb: u8,
    /// SC bits 7 (transfer enable) and 0 (clock select).
    sc: u8,
    /// Bits left to shift in the current transfer.
    bits_left: u8,
    /// Time of the next shift, `u64::MAX` when idle.
    next_shift: u64,
    /// Bytes sent so far (at most the last 64 KiB of them).
    pub output: Vec<u8>,
}

impl Default for Serial {
    fn default() -> Self {
        Serial {
            sb: 0,
            sc: 0,
            bits_left: 0,
            next_shift: u64::MAX,
            output: Vec::new(),
        }
    }
}

impl Serial {
    /// Time of the next event.
    #[inline]
    pub fn next_event(&self) -> u64 {
        self.next_shift
    }

    /// SB read.
    pub fn read_sb(&self) -> u8 {
        self.sb
    }

    /// SC read (unused bits read as 1 on the DMG).
    pub fn read_sc(&self) -> u8 {
        0x7E | self.sc
    }

    /// SB write.
    pub fn write_sb(&mut self, v: u8) {
        self.sb = v;
    }

    /// SC write; `counter` is the system counter now.
    pub fn write_sc(&mut self, v: u8, now: u64, counter: u16) {
        self.sc = v & 0x81;
        if v & 0x81 == 0x81 {
            if self.output.len() >= OUTPUT_CAP {
                self.output.drain(..OUTPUT_CAP / 2);
            }
            self.output.push(self.sb);
            self.bits_left = 8;
            self.next_shift = next_falling_edge(now, counter);
        } else {
            // External clock with no partner: the transfer never progresses.
            self.bits_left = 0;
            self.next_shift = u64::MAX;
        }
    }

    /// Set SB and SC from a save state that keeps no bit count (BESS, [`crate::bess`]): an
    /// internal-clock transfer in progress goes on as if it had just started (8 bits to
    /// shift), without adding to [`Serial::output`]; `counter` is the system counter now.
    pub(crate) fn restore(&mut self, sb: u8, sc: u8, now: u64, counter: u16) {
        self.sb = sb;
        self.sc = sc & 0x81;
        if self.sc == 0x81 {
            self.bits_left = 8;
            self.next_shift = next_falling_edge(now, counter);
        } else {
            self.bits_left = 0;
            self.next_shift = u64::MAX;
        }
    }

    /// Shift the bits due by `now`; returns true when a transfer completes (serial interrupt).
    pub fn run_events(&mut self, now: u64) -> bool {
        while self.next_shift <= now {
            self.sb = (self.sb << 1) | 1;
            self.bits_left = self.bits_left.saturating_sub(1);
            if self.bits_left == 0 {
                self.sc &= 0x7F;
                self.next_shift = u64::MAX;
                return true;
            }
            self.next_shift += u64::from(CLOCK_BIT) * 2;
        }
        false
    }

    /// The system counter was reset (DIV write): re-align the next shift to it.
    pub fn counter_reset(&mut self, now: u64) {
        if self.next_shift != u64::MAX {
            self.next_shift = next_falling_edge(now, 0);
        }
    }
}

/// The first time after `now` at which a shift happens: the next falling edge of the counter's
/// clock bit (Mooneye `boot_sclk_align-dmgABCmgb`, with DIV's phase fixed by
/// `boot_div-dmgABCmgb`; the CPU sees the transfer's interrupt in the M-cycle of that edge).
fn next_falling_edge(now: u64, counter: u16) -> u64 {
    let period = u64::from(CLOCK_BIT) * 2;
    now + (period - u64::from(counter) % period)
}

impl Serial {
    /// Append the serial port's part of the state image (not the output log).
    pub(crate) fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        w.bytes(&[self.sb, self.sc, self.bits_left]);
        w.u64(self.next_shift);
    }

    /// Read the serial port's part of the state image.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
    ) -> Result<(), crate::state::StateError> {
        self.sb = r.u8()?;
        self.sc = r.u8()?;
        self.bits_left = r.below(9, "serial bit count")?;
        self.next_shift = r.u64()?;
        Ok(())
    }
}
