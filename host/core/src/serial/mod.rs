//! The serial port: SB (0xFF01) and SC (0xFF02) (Pan Docs: "Serial Data Transfer (Link Cable)").
//!
//! With the internal clock the port shifts one bit every 512 T-cycles (8192 Hz). The shifts
//! are tied to the falling edges of bit 7 of the system counter (every 256 T-cycles) and fall
//! on every other one, counted from the start of the transfer: the first shift comes on the
//! second edge at or after the SC write. So a transfer takes between 7 × 512 + 256 and
//! 8 × 512 T-cycles, depending on the counter's phase: AntonioND's
//! `sio_irq_delay` (DMG dump: 128 transfers started at every phase of the counter) and
//! Mooneye's `boot_sclk_align-dmgABCmgb` pin this. On the CGB the clock follows the system
//! counter, which runs twice as fast at double speed (16,384 Hz), and SC bit 1 (CGB mode only)
//! selects the fast clock, 32 times faster: counter bit 2 instead of bit 7 (262,144 Hz, Pan
//! Docs "Serial Data Transfer"). What is at the other end of the cable is a [`Device`]: with
//! nothing there the bits shifted in are 1s; another Game Boy's port ([`LinkPort`], driven by
//! [`crate::link::Pair`]) gives its line's bit at each edge and takes ours. On the external
//! clock a side shifts only while SC bit 7 is set (it waits for a byte: Pan Docs issue #398,
//! hardware observation), one bit per edge of the other side's clock, and completes (SC bit 7
//! cleared, the serial interrupt) on the eighth. Every byte the game starts sending is kept in
//! [`Serial::output`] for hosts (Blargg's tests print their results there). The Game Boy
//! Printer ([`Printer`]) is the other device: it is always clocked by the Game Boy.

mod port;
mod printer;

pub use port::{Inexact, LinkPort};
pub use printer::{PAPER_WIDTH, Paper, Printer};

/// System counter ticks between two shifts of an internal-clock transfer (8192 Hz at normal
/// speed).
const SHIFT_PERIOD: u64 = 512;
/// Period of bit 7 of the system counter, whose falling edges the shifts fall on.
const EDGE_PERIOD: u64 = 256;
/// How much faster the CGB's fast clock (SC bit 1) shifts: counter bit 2 instead of bit 7.
const FAST_DIVIDER: u64 = 32;

/// Most bytes kept in the output log before older ones are dropped.
const OUTPUT_CAP: usize = 1 << 16;

/// What is at the other end of the cable (not in the machine's state image: a linked pair
/// keeps its ports in its own, [`crate::link::Pair::save_state`]).
#[derive(Clone, Debug, Default)]
pub enum Device {
    /// Nothing: the line reads 1.
    #[default]
    Nothing,
    /// Another Game Boy, through this side's port.
    Link(Box<LinkPort>),
    /// The Game Boy Printer.
    Printer(Box<Printer>),
}

/// Serial port state.
#[derive(Clone, Debug)]
pub struct Serial {
    /// SB, the shift register.
    sb: u8,
    /// SC bits 7 (transfer enable), 1 (the CGB's fast clock, CGB mode only) and 0 (clock
    /// select).
    sc: u8,
    /// CGB mode: SC bit 1 exists (else it reads 1).
    cgb_mode: bool,
    /// System counter ticks per dot: 1, or 2 at double speed.
    rate: u64,
    /// Bits left to shift in the current transfer.
    bits_left: u8,
    /// Time of the next shift, `u64::MAX` when idle.
    next_shift: u64,
    /// Bytes sent so far (at most the last 64 KiB of them).
    pub output: Vec<u8>,
    /// What is at the other end of the cable.
    pub(crate) device: Device,
}

impl Default for Serial {
    fn default() -> Self {
        Serial {
            sb: 0,
            sc: 0,
            cgb_mode: false,
            rate: 1,
            bits_left: 0,
            next_shift: u64::MAX,
            output: Vec::new(),
            device: Device::Nothing,
        }
    }
}

impl Serial {
    /// Time of the next event.
    #[inline]
    pub fn next_event(&self) -> u64 {
        match &self.device {
            Device::Link(port) => self.next_shift.min(port.next_event()),
            _ => self.next_shift,
        }
    }

    /// This side's link port, when another Game Boy is at the other end.
    pub(crate) fn port(&self) -> Option<&LinkPort> {
        match &self.device {
            Device::Link(port) => Some(port),
            _ => None,
        }
    }

    /// This side's link port, to change.
    pub(crate) fn port_mut(&mut self) -> Option<&mut LinkPort> {
        match &mut self.device {
            Device::Link(port) => Some(port),
            _ => None,
        }
    }

    /// Put `device` at the other end of the cable (an unplugged port forgets its edges).
    pub(crate) fn set_device(&mut self, device: Device) {
        self.device = device;
    }

    /// What is at the other end of the cable.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// What is at the other end of the cable, to change (the printer's paper).
    pub fn device_mut(&mut self) -> &mut Device {
        &mut self.device
    }

    /// An internal-clock transfer is running: the time of its next shift.
    pub(crate) fn next_shift(&self) -> Option<u64> {
        (self.next_shift != u64::MAX).then_some(self.next_shift)
    }

    /// Counter ticks per shift of the selected internal clock, in dots.
    pub(crate) fn shift_period(&self) -> u64 {
        self.periods().0 / self.rate
    }

    /// SC bits 7 and 0: waiting for a byte on the external clock.
    fn waits_external(&self) -> bool {
        self.sc & 0x81 == 0x80
    }

    /// Whether this side waits for a byte from the other side's clock: SC on the external
    /// clock with the transfer on, bits of the byte left.
    pub(crate) fn waits_for_byte(&self) -> bool {
        self.waits_external() && self.port().is_some_and(|p| p.bits_left > 0)
    }

    /// Whether the other side's edge at `time` shifts a bit in: it waits for a byte, and
    /// began to before `time`.
    pub(crate) fn takes_edge_at(&self, time: u64) -> bool {
        self.waits_for_byte() && self.port().is_some_and(|p| p.armed_at <= time)
    }

    /// SB read.
    pub fn read_sb(&self) -> u8 {
        self.sb
    }

    /// SC read (unused bits read as 1; bit 1 too outside CGB mode).
    pub fn read_sc(&self) -> u8 {
        if self.cgb_mode {
            0x7C | self.sc
        } else {
            0x7E | self.sc
        }
    }

    /// Set CGB mode (SC bit 1 exists) and the counter's rate (2 at double speed).
    pub(crate) fn set_cgb(&mut self, cgb_mode: bool, rate: u16) {
        self.cgb_mode = cgb_mode;
        self.rate = u64::from(rate.clamp(1, 2));
        if !cgb_mode {
            self.sc &= 0x81;
        }
    }

    /// Counter ticks per shift and per edge of the selected clock.
    fn periods(&self) -> (u64, u64) {
        if self.sc & 0x02 != 0 {
            (SHIFT_PERIOD / FAST_DIVIDER, EDGE_PERIOD / FAST_DIVIDER)
        } else {
            (SHIFT_PERIOD, EDGE_PERIOD)
        }
    }

    /// Whether the counter bit the clock select picks (7, or 2 for the fast clock) is 1.
    fn selected_bit(&self, counter: u16) -> bool {
        u64::from(counter) & (self.periods().1 / 2) != 0
    }

    /// SB write at `now`.
    pub fn write_sb(&mut self, v: u8, now: u64) {
        self.sb = v;
        if let Some(port) = self.port_mut() {
            port.logged(now, v);
        }
    }

    /// SC write; `counter` is the system counter now.
    ///
    /// A write that starts a transfer, or rewrites SC while one runs, restarts it: 8 bits to
    /// shift, the clock's divide-by-two stage cleared. When the write moves the clock select
    /// (SC bit 1, CGB mode) from a counter bit that reads 1 to one that reads 0, the selector's
    /// output falls: that edge clocks the divide-by-two stage, so the first shift comes one
    /// edge of the new clock early (gbc-hw-tests `sc_change_freq_gbc`: bit 7 to bit 2 and
    /// bit 2 to bit 7, each at every counter phase). With no transfer running the stage is held
    /// clear and that fall does not count (the CGB leaves its boot with SC bit 1 set: Gambatte's
    /// `serial/nopx1_div_write_start_wait_read_if_1` starts a transfer on time).
    pub fn write_sc(&mut self, v: u8, now: u64, counter: u16) {
        let old_bit = self.selected_bit(counter) && self.next_shift != u64::MAX;
        self.sc = v & if self.cgb_mode { 0x83 } else { 0x81 };
        if v & 0x81 == 0x81 {
            if self.output.len() >= OUTPUT_CAP {
                self.output.drain(..OUTPUT_CAP / 2);
            }
            self.output.push(self.sb);
            self.bits_left = 8;
            self.next_shift = self.first_shift(now, counter);
            if old_bit && !self.selected_bit(counter) {
                self.next_shift -= self.periods().1 / self.rate;
            }
        } else {
            // External clock: the transfer goes on with the other side's edges (with nothing
            // there it never progresses).
            self.bits_left = 0;
            self.next_shift = u64::MAX;
        }
        let sc = self.sc;
        if let Some(port) = self.port_mut() {
            port.bits_left = 0;
            if sc & 0x80 != 0 {
                // The driver decides who runs next: this side now clocks, or waits.
                port.stop = true;
            }
            if sc & 0x81 == 0x80 {
                port.bits_left = 8;
                port.armed_at = now;
            }
        }
    }

    /// Set SB and SC from a save state that keeps no bit count (BESS, [`crate::bess`]): an
    /// internal-clock transfer in progress goes on as if it had just started (8 bits to
    /// shift), without adding to [`Serial::output`]; `counter` is the system counter now.
    pub(crate) fn restore(&mut self, sb: u8, sc: u8, now: u64, counter: u16) {
        self.sb = sb;
        self.sc = sc & if self.cgb_mode { 0x83 } else { 0x81 };
        if self.sc & 0x81 == 0x81 {
            self.bits_left = 8;
            self.next_shift = self.first_shift(now, counter);
        } else {
            self.bits_left = 0;
            self.next_shift = u64::MAX;
        }
    }

    /// Shift the bits due by `now` (this side's clock and the other side's edges, in time
    /// order); returns true when a transfer completes (serial interrupt).
    pub fn run_events(&mut self, now: u64) -> bool {
        loop {
            let received = self.port().map_or(u64::MAX, LinkPort::next_event);
            // The other side's edge first at the same time: it reads SB as it was before.
            if received <= now && received <= self.next_shift {
                if self.receive(now) {
                    return true;
                }
            } else if self.next_shift <= now {
                if self.shift(self.next_shift) {
                    return true;
                }
            } else {
                return false;
            }
        }
    }

    /// Shift one bit on this side's clock at `time`: out goes SB bit 7, in comes the other
    /// end's line. True when the byte is complete.
    fn shift(&mut self, time: u64) -> bool {
        let out = self.sb & 0x80 != 0;
        let line = match &mut self.device {
            Device::Nothing => true,
            Device::Link(port) => port.clock(time, out),
            Device::Printer(printer) => printer.clock(time, out),
        };
        self.sb = (self.sb << 1) | u8::from(line);
        let sb = self.sb;
        if let Some(port) = self.port_mut() {
            port.logged(time, sb);
        }
        self.bits_left = self.bits_left.saturating_sub(1);
        if self.bits_left == 0 {
            self.sc &= 0x7F;
            self.next_shift = u64::MAX;
            return true;
        }
        self.next_shift += self.periods().0 / self.rate;
        false
    }

    /// Take the other side's next edge due by `now`: shift it in if this side waits for a
    /// byte (armed before the edge). True when the byte is complete.
    fn receive(&mut self, now: u64) -> bool {
        let sb = self.sb;
        let Some(edge) = self.port_mut().and_then(|p| p.take_due(now)) else {
            return false;
        };
        let takes = self.takes_edge_at(edge.time);
        let Some(port) = self.port_mut() else {
            return false;
        };
        if edge.predicted && (sb & 0x80 != 0) != edge.assumed {
            port.inexact.mispredicted += 1;
        }
        if !takes {
            return false;
        }
        let sb = (sb << 1) | u8::from(edge.bit);
        port.logged(edge.time, sb);
        port.bits_left -= 1;
        let done = port.bits_left == 0;
        self.sb = sb;
        if done {
            self.sc &= 0x7F;
        }
        done
    }

    /// The system counter was reset (DIV write) at `now`, from `counter`: the clock's edges
    /// restart from 0. If the selected counter bit was 1 it falls now and clocks the
    /// divide-by-two stage: the shift comes now if that stage was armed (the edge between two
    /// shifts had passed), else on the first edge after the reset. With the bit at 0 the shift
    /// comes on the first edge after the reset if the stage was armed, else on the second
    /// (Gambatte's `serial/start_late_div_write_wait_read_if_*`, the DIV write at each of the
    /// four phases; AntonioND's `div_reset_serial`).
    pub fn counter_reset(&mut self, now: u64, counter: u16) {
        let edges = self.edges_after_reset(now, counter);
        self.restart_after_reset(now, edges);
    }

    /// How many edges of the selected clock after a counter reset at `now` (from `counter`)
    /// the next shift comes: 0 (at the reset), 1 or 2; `None` when idle.
    pub(crate) fn edges_after_reset(&self, now: u64, counter: u16) -> Option<u64> {
        if self.next_shift == u64::MAX {
            return None;
        }
        let edge = self.periods().1;
        let armed = self.next_shift.saturating_sub(now) * self.rate <= edge;
        let falls = self.selected_bit(counter);
        Some(2 - u64::from(armed) - u64::from(falls))
    }

    /// Schedule the next shift `edges` edges of the selected clock after `start`, when the
    /// reset counter starts counting (see [`Serial::counter_reset`]).
    pub(crate) fn restart_after_reset(&mut self, start: u64, edges: Option<u64>) {
        if let Some(edges) = edges {
            self.next_shift = start + edges * self.periods().1 / self.rate;
        }
    }

    /// When the first shift of a transfer started at `now` happens, the system counter being
    /// `counter`: on the second falling edge of counter bit 7 (bit 2 for the fast clock) at or
    /// after `now` (the CPU sees the transfer's interrupt in the M-cycle of the last one:
    /// Mooneye `boot_sclk_align-dmgABCmgb`, with DIV's phase fixed by `boot_div-dmgABCmgb`).
    fn first_shift(&self, now: u64, counter: u16) -> u64 {
        let edge = self.periods().1;
        let phase = u64::from(counter) % edge;
        now + (2 * edge - phase).div_ceil(self.rate)
    }
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
        self.sc = r.u8()? & 0x83;
        self.bits_left = r.below(9, "serial bit count")?;
        self.next_shift = r.u64()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CGB-mode port at normal speed.
    fn cgb_port() -> Serial {
        let mut s = Serial::default();
        s.set_cgb(true, 1);
        s
    }

    #[test]
    fn transfer_starts_on_the_second_edge() {
        let mut s = cgb_port();
        // Counter 0x100 + 8 at t = 8: bit 7 falls at counter 0x200 and 0x300.
        s.write_sc(0x81, 8, 0x108);
        assert_eq!(s.next_event(), 8 + 0x1F8);
    }

    #[test]
    fn a_div_write_moves_the_next_shift_by_the_edges_left() {
        // Started at counter 0: the first shift at 0x200, on the second edge of bit 7.
        let cases = [
            // Bit 7 low, the edge at 0x100 still to come: two edges on.
            (0x40, 0x200),
            // Bit 7 high: it falls at the reset, one edge on.
            (0xC0, 0x100),
            // The edge at 0x100 passed (armed), bit 7 low: one edge on.
            (0x140, 0x100),
            // Armed, bit 7 high: the shift comes at the reset.
            (0x1C0, 0),
        ];
        for (at, after) in cases {
            let mut s = cgb_port();
            s.write_sc(0x81, 0, 0);
            s.counter_reset(at, at as u16);
            assert_eq!(s.next_event(), at + after, "reset at {at:#x}");
        }
    }

    #[test]
    fn switching_from_a_high_to_a_low_clock_bit_counts_an_edge() {
        // Slow to fast with counter bit 7 = 1 and bit 2 = 0: the selector's output falls, so
        // the first shift is on the first edge of bit 2, not the second.
        let mut s = cgb_port();
        s.write_sc(0x81, 0, 0x80);
        s.write_sc(0x83, 8, 0x88);
        assert_eq!(s.next_event(), 8 + 8);
        // The same switch with bit 2 = 1: no edge, the second edge of bit 2.
        let mut s = cgb_port();
        s.write_sc(0x81, 0, 0x80);
        s.write_sc(0x83, 4, 0x84);
        assert_eq!(s.next_event(), 4 + 4 + 8);
        // Fast to slow with bit 2 = 1 and bit 7 = 0: the first edge of bit 7.
        let mut s = cgb_port();
        s.write_sc(0x83, 0, 0x00);
        s.write_sc(0x81, 4, 0x04);
        assert_eq!(s.next_event(), 4 + 0xFC);
    }
}
