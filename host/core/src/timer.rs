//! DIV, TIMA, TMA and TAC (Pan Docs: "Timer and Divider Registers", "Timer obscure behaviour").
//!
//! The 16-bit system counter is not stored tick by tick: it is `now × rate + div_offset` (in
//! T-cycles, wrapping at 16 bits), so reading DIV costs nothing per cycle. `rate` is 1, or 2 at
//! the CGB's double speed, where the counter runs at the CPU's doubled clock while `now` keeps
//! counting dots (Pan Docs "FF4D — KEY1": the timer and DIV run twice as fast); times are dots
//! throughout. TIMA increments on each falling
//! edge of the counter bit that TAC selects, ANDed with the TAC enable bit. Those edges happen at
//! predictable times, so the next one is a scheduled event ([`Timer::next_event`]) rather than a
//! check every M-cycle. Writes that move the counter (DIV) or the selected bit (TAC) can produce a
//! falling edge themselves: those glitch increments are applied at the write.
//!
//! Overflow: TIMA reads 0x00 for one M-cycle, then TMA is loaded and the timer interrupt is
//! requested. A TIMA write in that first cycle cancels the reload; in the reload cycle a TIMA
//! write is ignored and a TMA write goes through to TIMA as well.

/// Timer state. Times are T-cycles since power-on.
#[derive(Clone, Debug)]
pub struct Timer {
    /// Added to the T-cycle clock to get the 16-bit system counter.
    div_offset: u16,
    /// TIMA (0xFF05).
    tima: u8,
    /// TMA (0xFF06).
    tma: u8,
    /// TAC (0xFF07), low 3 bits.
    tac: u8,
    /// Time of the next TIMA increment, `u64::MAX` when stopped.
    next_tick: u64,
    /// Time TIMA is reloaded from TMA after an overflow, `u64::MAX` when none is pending.
    reload_at: u64,
    /// Time of the last reload, for the write races in that cycle.
    reloaded_at: u64,
    /// Counter ticks per dot: 1, or 2 at double speed.
    rate: u16,
}

/// Bit of the system counter whose falling edge clocks TIMA, per TAC's low two bits.
const TAC_BIT: [u16; 4] = [1 << 9, 1 << 3, 1 << 5, 1 << 7];

impl Timer {
    /// A timer whose system counter reads `counter` at time `now`.
    pub fn new(now: u64, counter: u16) -> Timer {
        Timer {
            div_offset: counter.wrapping_sub(now as u16),
            tima: 0,
            tma: 0,
            tac: 0,
            next_tick: u64::MAX,
            reload_at: u64::MAX,
            reloaded_at: u64::MAX,
            rate: 1,
        }
    }

    /// The 16-bit system counter at `now`.
    #[inline]
    pub fn counter(&self, now: u64) -> u16 {
        (now as u16)
            .wrapping_mul(self.rate)
            .wrapping_add(self.div_offset)
    }

    /// Counter ticks per dot: 1, or 2 at double speed.
    pub fn rate(&self) -> u16 {
        self.rate
    }

    /// Switch the counter's speed at `now` (the CGB's speed switch): it goes on from the value
    /// it has, at `rate` ticks per dot (1 or 2).
    pub fn set_rate(&mut self, now: u64, rate: u16) {
        let counter = self.counter(now);
        self.rate = rate.clamp(1, 2);
        self.div_offset = counter.wrapping_sub((now as u16).wrapping_mul(self.rate));
        if self.reload_at != u64::MAX {
            self.reload_at = now + self.mcycle();
        }
        self.schedule(now);
    }

    /// Dots per CPU M-cycle at this rate.
    fn mcycle(&self) -> u64 {
        4 / u64::from(self.rate)
    }

    /// The earliest time this timer needs [`Timer::run_events`].
    #[inline]
    pub fn next_event(&self) -> u64 {
        self.next_tick.min(self.reload_at)
    }

    fn enabled(&self) -> bool {
        self.tac & 4 != 0
    }

    fn bit(&self) -> u16 {
        TAC_BIT[usize::from(self.tac & 3)]
    }

    /// Schedule the next falling edge strictly after `now`.
    fn schedule(&mut self, now: u64) {
        if !self.enabled() {
            self.next_tick = u64::MAX;
            return;
        }
        let period = u64::from(self.bit()) * 2;
        let phase = u64::from(self.counter(now)) % period;
        self.next_tick = now + (period - phase).div_ceil(u64::from(self.rate));
    }

    /// Increment TIMA; on overflow TMA is reloaded (and the interrupt requested) at `reload_at`.
    ///
    /// A falling edge of the counter reloads one M-cycle later. An increment caused by a CPU write
    /// (DIV or TAC) lands mid-cycle, so it reloads at the end of that same M-cycle (Mooneye
    /// `timer/rapid_toggle`).
    fn increment(&mut self, reload_at: u64) {
        let (v, overflow) = self.tima.overflowing_add(1);
        self.tima = v;
        if overflow {
            self.reload_at = reload_at;
        }
    }

    /// Process every timer event due at or before `now`. Returns true when the timer interrupt
    /// is requested.
    pub fn run_events(&mut self, now: u64) -> bool {
        let mut irq = false;
        loop {
            if self.reload_at <= now && self.reload_at <= self.next_tick {
                self.tima = self.tma;
                self.reloaded_at = self.reload_at;
                self.reload_at = u64::MAX;
                irq = true;
            } else if self.next_tick <= now {
                let at = self.next_tick;
                self.increment(at + self.mcycle());
                let period = u64::from(self.bit()) * 2 / u64::from(self.rate);
                self.next_tick = at + period;
            } else {
                return irq;
            }
        }
    }

    /// DIV (0xFF04): the counter's high byte.
    pub fn read_div(&self, now: u64) -> u8 {
        (self.counter(now) >> 8) as u8
    }

    /// TIMA (0xFF05).
    pub fn read_tima(&self) -> u8 {
        self.tima
    }

    /// TMA (0xFF06).
    pub fn read_tma(&self) -> u8 {
        self.tma
    }

    /// TAC (0xFF07), unused bits read as 1.
    pub fn read_tac(&self) -> u8 {
        0xF8 | self.tac
    }

    /// Any write to DIV resets the system counter; a selected bit going 1 → 0 clocks TIMA.
    pub fn write_div(&mut self, now: u64) {
        if self.enabled() && self.counter(now) & self.bit() != 0 {
            self.increment(now);
        }
        self.div_offset = 0u16.wrapping_sub((now as u16).wrapping_mul(self.rate));
        self.schedule(now);
    }

    /// The CGB's speed switch resets the system counter at `now` as a DIV write does, but with
    /// TAC's clock select 1-3 the increment the reset can cause follows the selected bit as it
    /// is one M-cycle (4 ticks) later (see `docs/timing.md`).
    pub fn speed_switch_reset(&mut self, now: u64) {
        let ahead = if self.tac & 3 == 0 { 0 } else { 4 };
        if self.enabled() && self.counter(now).wrapping_add(ahead) & self.bit() != 0 {
            self.increment(now);
        }
        self.div_offset = 0u16.wrapping_sub((now as u16).wrapping_mul(self.rate));
        self.schedule(now);
    }

    /// The counter, just reset, stands at 0 until `at` and counts from there (the speed
    /// switch holds it).
    pub fn hold_reset_until(&mut self, at: u64) {
        self.div_offset = 0u16.wrapping_sub((at as u16).wrapping_mul(self.rate));
        self.schedule(at);
    }

    /// TIMA write, with the overflow races described in the module docs.
    pub fn write_tima(&mut self, now: u64, v: u8) {
        if self.reloaded_at == now {
            return;
        }
        self.tima = v;
        self.reload_at = u64::MAX;
    }

    /// TMA write; in the reload cycle it reaches TIMA too.
    pub fn write_tma(&mut self, now: u64, v: u8) {
        self.tma = v;
        if self.reloaded_at == now {
            self.tima = v;
        }
    }

    /// TAC write: the multiplexer output falling from 1 to 0 clocks TIMA (DMG behaviour).
    pub fn write_tac(&mut self, now: u64, v: u8) {
        let counter = self.counter(now);
        let old = self.enabled() && counter & self.bit() != 0;
        self.tac = v & 7;
        let new = self.enabled() && counter & self.bit() != 0;
        if old && !new {
            self.increment(now);
        }
        self.schedule(now);
    }
}

impl Timer {
    /// Append the timer's part of the state image.
    pub(crate) fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        w.u16(self.div_offset);
        w.bytes(&[self.tima, self.tma, self.tac]);
        w.u64(self.next_tick);
        w.u64(self.reload_at);
        w.u64(self.reloaded_at);
        w.u8(self.rate as u8);
    }

    /// Read the timer's part of the state image.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
    ) -> Result<(), crate::state::StateError> {
        self.div_offset = r.u16()?;
        self.tima = r.u8()?;
        self.tma = r.u8()?;
        self.tac = r.below(8, "TAC")?;
        self.next_tick = r.u64()?;
        self.reload_at = r.u64()?;
        self.reloaded_at = r.u64()?;
        self.rate = u16::from(r.below(3, "timer rate")?.max(1));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div_counts_every_256_cycles() {
        let t = Timer::new(0, 0);
        assert_eq!(t.read_div(255), 0);
        assert_eq!(t.read_div(256), 1);
        assert_eq!(t.read_div(256 * 300), (300 % 256) as u8);
    }

    #[test]
    fn tima_counts_at_tac_rate_and_reloads() {
        let mut t = Timer::new(0, 0);
        t.write_tma(0, 0xF0);
        t.write_tac(0, 0b101); // 16 cycles per tick
        t.write_tima(0, 0xFE);
        assert!(!t.run_events(16 * 2 - 1));
        assert_eq!(t.read_tima(), 0xFF);
        assert!(!t.run_events(32));
        assert_eq!(
            t.read_tima(),
            0x00,
            "reads 0 for one M-cycle after overflow"
        );
        assert!(t.run_events(36));
        assert_eq!(t.read_tima(), 0xF0);
    }

    #[test]
    fn div_write_glitch_clocks_tima() {
        let mut t = Timer::new(0, 0);
        t.write_tac(0, 0b100); // bit 9
        t.run_events(512);
        assert_eq!(t.read_tima(), 0);
        t.write_div(512); // bit 9 is 1: falling edge
        assert_eq!(t.read_tima(), 1);
    }

    #[test]
    fn tima_write_in_overflow_cycle_cancels_reload() {
        let mut t = Timer::new(0, 0);
        t.write_tac(0, 0b101);
        t.write_tima(0, 0xFF);
        t.run_events(16);
        t.write_tima(16, 0x42);
        assert!(!t.run_events(20));
        assert_eq!(t.read_tima(), 0x42);
    }
}
