//! The MBC3 real-time clock (Pan Docs, "MBC3": "Clock Counter Registers", "The Day Counter").
//!
//! The clock runs on emulated time only, never the wall clock. Every call takes `now`, the
//! emulated time in T-cycles (4,194,304 per second) since power-on. The RTC oscillator runs at
//! 32,768 Hz, one oscillator tick every 128 T-cycles, so the oscillator has counted `now / 128`
//! ticks at `now`; a 15-bit sub-second counter divides that down to seconds. The state is
//! brought up to date lazily: only when a register is written or latched (and for saves), so a
//! game that never touches the clock costs nothing.
//!
//! Behaviour at the edges, following Pan Docs and the rtc3test descriptions
//! (aaaaaa123456789/rtc3test, tests.md):
//! - Registers hold only their real bits: S and M 6 bits, H 5 bits, DL 8 bits, DH bits 0
//!   (day bit 8), 6 (halt) and 7 (day carry). Other bits read as 0.
//! - Counting: a register at its normal maximum (59 for S and M, 23 for H) goes to 0 and
//!   carries into the next one. A register holding an out-of-range value keeps counting up
//!   and, when it overflows its bit width (63 for S and M, 31 for H), wraps to 0 *without*
//!   carrying ("Invalid rollovers"). So 28:63:60 ticks to 28:63:61, and 00:63:59 to 00:00:00
//!   without touching the hours.
//! - The 9-bit day counter wraps from 511 to 0 and sets the carry flag, which stays set until
//!   the game writes DH with bit 7 clear.
//! - Halt (DH bit 6) stops the seconds and the sub-second counter; clearing it resumes where
//!   it stopped ("RTC off/400").
//! - Writing S resets the sub-second counter, so the next tick comes a full second later
//!   ("RTCS/500", "RTCS/900"); writing M, H, DL or DH leaves it alone.
//! - The latched copy is what reads return while the mapper's latch is set (see
//!   `mbc3.rs` for when it is); writes change the counting registers only, never the
//!   latched copy. Before the first latch the copy is all zeros.

/// Length of the RTC footer appended to battery saves of MBC3+TIMER cartridges.
pub const RTC_FOOTER_LEN: usize = 48;
/// Length of the older RTC footer variant with a 32-bit timestamp (accepted on load).
pub const RTC_FOOTER_LEN_SHORT: usize = 44;

/// T-cycles per RTC oscillator tick (4,194,304 Hz / 32,768 Hz).
pub const CYCLES_PER_RTC_TICK: u64 = 128;
/// RTC oscillator ticks per second.
pub const RTC_TICKS_PER_SECOND: u64 = 32_768;
/// T-cycles per emulated second.
pub const CYCLES_PER_SECOND: u64 = CYCLES_PER_RTC_TICK * RTC_TICKS_PER_SECOND;

/// Length of [`Rtc::to_state`]'s output.
pub const RTC_STATE_LEN: usize = 24;

const SECONDS_PER_DAY: u64 = 86_400;
const DAY_MASK: u16 = 0x1FF;

/// The MBC3 clock registers, by their register-select value (0x08-0x0C) in 0x4000-0x5FFF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RtcRegister {
    /// 0x08 RTC S: seconds.
    S,
    /// 0x09 RTC M: minutes.
    M,
    /// 0x0A RTC H: hours.
    H,
    /// 0x0B RTC DL: lower 8 bits of the day counter.
    Dl,
    /// 0x0C RTC DH: bit 0 day counter bit 8, bit 6 halt, bit 7 day counter carry.
    Dh,
}

impl RtcRegister {
    /// The register for a register-select value, `None` outside 0x08-0x0C.
    pub fn from_select(value: u8) -> Option<RtcRegister> {
        match value {
            0x08 => Some(Self::S),
            0x09 => Some(Self::M),
            0x0A => Some(Self::H),
            0x0B => Some(Self::Dl),
            0x0C => Some(Self::Dh),
            _ => None,
        }
    }

    /// Position in the `[S, M, H, DL, DH]` order used by saves and the latch.
    pub fn index(self) -> usize {
        match self {
            Self::S => 0,
            Self::M => 1,
            Self::H => 2,
            Self::Dl => 3,
            Self::Dh => 4,
        }
    }

    /// The bits the register really has.
    pub fn mask(self) -> u8 {
        match self {
            Self::S | Self::M => 0x3F,
            Self::H => 0x1F,
            Self::Dl => 0xFF,
            Self::Dh => 0xC1,
        }
    }
}

/// The clock state: the counting registers, the latched copy, and the sub-second position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rtc {
    seconds: u8,
    minutes: u8,
    hours: u8,
    /// 9-bit day counter.
    days: u16,
    halted: bool,
    day_carry: bool,
    /// Oscillator ticks since the last whole second, 0..32768.
    subsecond: u32,
    /// `now / 128` when the state was last brought up to date.
    synced_tick: u64,
    /// What reads see: `[S, M, H, DL, DH]`, already masked.
    latched: [u8; 5],
}

impl Default for Rtc {
    fn default() -> Self {
        Self::new(0)
    }
}

impl Rtc {
    /// A clock at day 0, 00:00:00, running, as of emulated time `now`.
    pub fn new(now: u64) -> Rtc {
        Rtc {
            seconds: 0,
            minutes: 0,
            hours: 0,
            days: 0,
            halted: false,
            day_carry: false,
            subsecond: 0,
            synced_tick: now / CYCLES_PER_RTC_TICK,
            latched: [0; 5],
        }
    }

    /// Brings the counters up to emulated time `now`. A `now` earlier than the last sync
    /// (which a monotonic clock never gives) only moves the reference point.
    pub fn sync(&mut self, now: u64) {
        let tick = now / CYCLES_PER_RTC_TICK;
        let elapsed = tick.saturating_sub(self.synced_tick);
        self.synced_tick = tick;
        if self.halted || elapsed == 0 {
            return;
        }
        let total = u64::from(self.subsecond).saturating_add(elapsed);
        // The remainder is below 32768, so it fits.
        self.subsecond = u32::try_from(total % RTC_TICKS_PER_SECOND).unwrap_or(0);
        self.advance_seconds(total / RTC_TICKS_PER_SECOND);
    }

    /// Counts `n` seconds, exactly as `n` single ticks would.
    pub fn advance_seconds(&mut self, mut n: u64) {
        while n > 0 {
            if self.seconds < 60 && self.minutes < 60 && self.hours < 24 {
                // Every register is in its normal range: plain arithmetic.
                let of_day = u128::from(self.seconds)
                    + 60 * u128::from(self.minutes)
                    + 3600 * u128::from(self.hours)
                    + u128::from(n);
                let rem = of_day % u128::from(SECONDS_PER_DAY);
                let days = u128::from(self.days) + of_day / u128::from(SECONDS_PER_DAY);
                if days > u128::from(DAY_MASK) {
                    self.day_carry = true;
                }
                // The casts below cannot truncate: each value is reduced first.
                self.days = (days % 512) as u16;
                self.hours = (rem / 3600) as u8;
                self.minutes = (rem / 60 % 60) as u8;
                self.seconds = (rem % 60) as u8;
                return;
            }
            // An out-of-range register: step one second at a time until every register is
            // back in range (at most 8 hours' worth of steps).
            self.tick_second();
            n -= 1;
        }
    }

    /// One second, with the hardware's carry rules.
    fn tick_second(&mut self) {
        match self.seconds {
            59 => self.seconds = 0,
            s => {
                self.seconds = s.wrapping_add(1) & 0x3F;
                return;
            }
        }
        match self.minutes {
            59 => self.minutes = 0,
            m => {
                self.minutes = m.wrapping_add(1) & 0x3F;
                return;
            }
        }
        match self.hours {
            23 => self.hours = 0,
            h => {
                self.hours = h.wrapping_add(1) & 0x1F;
                return;
            }
        }
        if self.days >= DAY_MASK {
            self.days = 0;
            self.day_carry = true;
        } else {
            self.days += 1;
        }
    }

    /// The live register values `[S, M, H, DL, DH]` as of the last sync.
    pub fn registers(&self) -> [u8; 5] {
        [
            self.seconds,
            self.minutes,
            self.hours,
            (self.days & 0xFF) as u8,
            self.dh(),
        ]
    }

    /// The latched register values `[S, M, H, DL, DH]`, what the game reads.
    pub fn latched(&self) -> [u8; 5] {
        self.latched
    }

    fn dh(&self) -> u8 {
        ((self.days >> 8) & 1) as u8
            | (u8::from(self.halted) << 6)
            | (u8::from(self.day_carry) << 7)
    }

    /// Whether the clock is halted (DH bit 6).
    pub fn halted(&self) -> bool {
        self.halted
    }

    /// The day counter carry flag (DH bit 7).
    pub fn day_carry(&self) -> bool {
        self.day_carry
    }

    /// The 9-bit day counter.
    pub fn days(&self) -> u16 {
        self.days
    }

    /// Oscillator ticks since the last whole second, 0..32768.
    pub fn subsecond(&self) -> u32 {
        self.subsecond
    }

    /// Copies the live registers, brought up to `now`, into the latched copy.
    pub fn latch(&mut self, now: u64) {
        self.sync(now);
        self.latched = self.registers();
    }

    /// Reads the latched copy of a register.
    #[inline]
    pub fn read(&self, reg: RtcRegister) -> u8 {
        self.latched.get(reg.index()).copied().unwrap_or(0xFF)
    }

    /// Reads a counting register as it is at emulated time `now` (without changing `self`).
    pub fn read_live(&self, reg: RtcRegister, now: u64) -> u8 {
        self.synced(now)
            .registers()
            .get(reg.index())
            .copied()
            .unwrap_or(0xFF)
    }

    /// Writes a counting register at emulated time `now` (the latched copy is left alone):
    /// the clock is brought up to `now` first, so the time before the write counts with the
    /// old values.
    pub fn write(&mut self, reg: RtcRegister, value: u8, now: u64) {
        self.sync(now);
        let value = value & reg.mask();
        match reg {
            RtcRegister::S => {
                self.seconds = value;
                self.subsecond = 0;
            }
            RtcRegister::M => self.minutes = value,
            RtcRegister::H => self.hours = value,
            RtcRegister::Dl => self.days = (self.days & 0x100) | u16::from(value),
            RtcRegister::Dh => {
                self.days = (self.days & 0xFF) | (u16::from(value & 1) << 8);
                self.halted = value & 0x40 != 0;
                self.day_carry = value & 0x80 != 0;
            }
        }
    }

    /// Replaces the whole state from saved registers (masked to their real bits), restarting
    /// the sub-second counter at `now`.
    pub fn restore(&mut self, live: [u8; 5], latched: [u8; 5], now: u64) {
        let [s, m, h, dl, dh] = live;
        self.seconds = s & RtcRegister::S.mask();
        self.minutes = m & RtcRegister::M.mask();
        self.hours = h & RtcRegister::H.mask();
        self.days = (u16::from(dh & 1) << 8) | u16::from(dl);
        self.halted = dh & 0x40 != 0;
        self.day_carry = dh & 0x80 != 0;
        self.subsecond = 0;
        self.synced_tick = now / CYCLES_PER_RTC_TICK;
        let regs = [
            RtcRegister::S,
            RtcRegister::M,
            RtcRegister::H,
            RtcRegister::Dl,
            RtcRegister::Dh,
        ];
        for (slot, (value, reg)) in self.latched.iter_mut().zip(latched.iter().zip(regs)) {
            *slot = value & reg.mask();
        }
    }

    /// The whole state in a fixed layout: live `[S, M, H, DL, DH]`, latched
    /// `[S, M, H, DL, DH]`, two zero bytes, the sub-second counter (u32 LE) and the last sync
    /// point in oscillator ticks (u64 LE).
    pub fn to_state(&self) -> [u8; RTC_STATE_LEN] {
        let mut out = [0; RTC_STATE_LEN];
        let fields = self
            .registers()
            .into_iter()
            .chain(self.latched)
            .chain([0, 0])
            .chain(self.subsecond.to_le_bytes())
            .chain(self.synced_tick.to_le_bytes());
        for (slot, byte) in out.iter_mut().zip(fields) {
            *slot = byte;
        }
        out
    }

    /// Restores [`Rtc::to_state`], masking registers to their real bits and the sub-second
    /// counter to its range.
    pub fn load_state(&mut self, state: &[u8; RTC_STATE_LEN]) {
        self.restore(take(state, 0), take(state, 5), 0);
        self.subsecond = u32::from_le_bytes(take(state, 12)) % 32_768;
        self.synced_tick = u64::from_le_bytes(take(state, 16));
    }

    /// The state brought up to `now` without changing `self` (for saves from `&self`).
    pub fn synced(&self, now: u64) -> Rtc {
        let mut copy = self.clone();
        copy.sync(now);
        copy
    }
}

/// `N` bytes of `bytes` from `at`, zeros where `bytes` is too short.
fn take<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    bytes
        .get(at..at.saturating_add(N))
        .and_then(|slice| slice.try_into().ok())
        .unwrap_or([0; N])
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEC: u64 = CYCLES_PER_SECOND;

    fn set(rtc: &mut Rtc, regs: [u8; 5], now: u64) {
        for (reg, v) in [
            RtcRegister::S,
            RtcRegister::M,
            RtcRegister::H,
            RtcRegister::Dl,
            RtcRegister::Dh,
        ]
        .into_iter()
        .zip(regs)
        {
            rtc.write(reg, v, now);
        }
    }

    #[test]
    fn counts_seconds_from_emulated_time() {
        let mut rtc = Rtc::new(0);
        rtc.latch(SEC - 1);
        assert_eq!(rtc.latched(), [0, 0, 0, 0, 0]);
        rtc.latch(SEC);
        assert_eq!(rtc.latched(), [1, 0, 0, 0, 0]);
        rtc.latch(SEC * (3600 + 61) + SEC / 2);
        assert_eq!(rtc.latched(), [1, 1, 1, 0, 0]);
        assert_eq!(rtc.subsecond(), 16_384);
    }

    #[test]
    fn latched_values_hold_until_next_latch() {
        let mut rtc = Rtc::new(0);
        rtc.latch(5 * SEC);
        rtc.sync(100 * SEC);
        assert_eq!(rtc.read(RtcRegister::S), 5);
        rtc.latch(100 * SEC);
        assert_eq!(rtc.read(RtcRegister::S), 40);
        assert_eq!(rtc.read(RtcRegister::M), 1);
    }

    #[test]
    fn lazy_sync_equals_many_small_syncs() {
        let mut a = Rtc::new(0);
        let mut b = Rtc::new(0);
        let end = 3 * 86_400 * SEC + 12_345_678;
        let mut t = 0;
        while t < end {
            t = (t + 9_999_991).min(end);
            b.sync(t);
        }
        a.sync(end);
        assert_eq!(a, b);
    }

    #[test]
    fn halt_stops_seconds_and_subsecond() {
        let mut rtc = Rtc::new(0);
        // Run 0.6 s, halt, wait 10 s, resume: the next tick comes 0.4 s later.
        rtc.write(RtcRegister::Dh, 0x40, 6 * SEC / 10);
        rtc.latch(11 * SEC);
        assert_eq!(rtc.read(RtcRegister::S), 0);
        assert_eq!(rtc.read(RtcRegister::Dh), 0x40);
        let resume = 20 * SEC;
        rtc.write(RtcRegister::Dh, 0x00, resume);
        rtc.latch(resume + 4 * SEC / 10 - CYCLES_PER_RTC_TICK);
        assert_eq!(rtc.read(RtcRegister::S), 0);
        rtc.latch(resume + 4 * SEC / 10 + CYCLES_PER_RTC_TICK);
        assert_eq!(rtc.read(RtcRegister::S), 1);
    }

    #[test]
    fn writing_seconds_resets_subsecond_counter() {
        let mut rtc = Rtc::new(0);
        rtc.write(RtcRegister::S, 10, SEC / 2);
        rtc.latch(SEC / 2 + SEC - CYCLES_PER_RTC_TICK);
        assert_eq!(rtc.read(RtcRegister::S), 10);
        rtc.latch(SEC / 2 + SEC);
        assert_eq!(rtc.read(RtcRegister::S), 11);
    }

    #[test]
    fn writing_minutes_keeps_subsecond_counter() {
        let mut rtc = Rtc::new(0);
        rtc.write(RtcRegister::M, 5, SEC / 4);
        rtc.latch(SEC);
        assert_eq!(rtc.latched(), [1, 5, 0, 0, 0]);
    }

    #[test]
    fn rollover_255_to_256_days() {
        let mut rtc = Rtc::new(0);
        set(&mut rtc, [59, 59, 23, 255, 0], 0);
        rtc.latch(SEC);
        assert_eq!(rtc.latched(), [0, 0, 0, 0, 1]);
        assert_eq!(rtc.days(), 256);
    }

    #[test]
    fn day_carry_after_512_days_is_sticky() {
        let mut rtc = Rtc::new(0);
        rtc.latch(512 * 86_400 * SEC);
        assert_eq!(rtc.latched(), [0, 0, 0, 0, 0x80]);
        rtc.latch(513 * 86_400 * SEC);
        assert_eq!(rtc.latched(), [0, 0, 0, 1, 0x80]);
        // 511 days 23:59:59 with carry already set: stays set.
        set(&mut rtc, [59, 59, 23, 0xFF, 0x81], 513 * 86_400 * SEC);
        rtc.latch(513 * 86_400 * SEC + SEC);
        assert_eq!(rtc.latched(), [0, 0, 0, 0, 0x80]);
        // Cleared by writing DH.
        rtc.write(RtcRegister::Dh, 0x00, 513 * 86_400 * SEC + SEC);
        assert_eq!(rtc.registers()[4], 0);
        assert!(!rtc.day_carry());
    }

    #[test]
    fn day_carry_from_single_tick() {
        let mut rtc = Rtc::new(0);
        set(&mut rtc, [59, 59, 23, 0xFF, 0x01], 0);
        rtc.latch(SEC);
        assert_eq!(rtc.latched(), [0, 0, 0, 0, 0x80]);
    }

    #[test]
    fn registers_keep_only_real_bits() {
        let mut rtc = Rtc::new(0);
        set(&mut rtc, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF], 0);
        assert_eq!(rtc.registers(), [0x3F, 0x3F, 0x1F, 0xFF, 0xC1]);
        rtc.latch(0);
        assert_eq!(rtc.latched(), [0x3F, 0x3F, 0x1F, 0xFF, 0xC1]);
        set(&mut rtc, [0, 0, 0, 0, 0], 0);
        assert_eq!(rtc.registers(), [0, 0, 0, 0, 0]);
        assert_eq!(
            rtc.latched(),
            [0x3F, 0x3F, 0x1F, 0xFF, 0xC1],
            "writes leave the copy"
        );
        assert_eq!(rtc.read_live(RtcRegister::H, 0), 0);
        assert_eq!(rtc.read(RtcRegister::H), 0x1F);
    }

    #[test]
    fn invalid_values_count_like_hardware() {
        let mut rtc = Rtc::new(0);
        // 28:63:60 → 28:63:61, day unchanged.
        set(&mut rtc, [60, 63, 28, 7, 0], 0);
        rtc.latch(SEC);
        assert_eq!(rtc.latched(), [61, 63, 28, 7, 0]);
        // Seconds 63 → 0 without carrying into minutes.
        set(&mut rtc, [63, 10, 5, 7, 0], SEC);
        rtc.latch(2 * SEC);
        assert_eq!(rtc.latched(), [0, 10, 5, 7, 0]);
        // Minutes 63 → 0 without carrying into hours.
        set(&mut rtc, [59, 63, 5, 7, 0], 2 * SEC);
        rtc.latch(3 * SEC);
        assert_eq!(rtc.latched(), [0, 0, 5, 7, 0]);
        // Hours 31 → 0 without carrying into days.
        set(&mut rtc, [59, 59, 31, 7, 0], 3 * SEC);
        rtc.latch(4 * SEC);
        assert_eq!(rtc.latched(), [0, 0, 0, 7, 0]);
        // High minutes (60-62) still increment on a seconds carry.
        set(&mut rtc, [59, 61, 5, 7, 0], 4 * SEC);
        rtc.latch(5 * SEC);
        assert_eq!(rtc.latched(), [0, 62, 5, 7, 0]);
        // High hours (24-30) still increment on a minutes carry.
        set(&mut rtc, [59, 59, 26, 7, 0], 5 * SEC);
        rtc.latch(6 * SEC);
        assert_eq!(rtc.latched(), [0, 0, 27, 7, 0]);
    }

    #[test]
    fn invalid_hours_settle_then_count_fast() {
        let mut rtc = Rtc::new(0);
        set(&mut rtc, [0, 0, 24, 0, 0], 0);
        // 8 hours to wrap 24 → 0 (no day carry), then 2 more days.
        rtc.latch((8 * 3600 + 2 * 86_400 + 5) * SEC);
        assert_eq!(rtc.latched(), [5, 0, 0, 2, 0]);
    }

    #[test]
    fn huge_advance_does_not_overflow() {
        let mut rtc = Rtc::new(0);
        rtc.advance_seconds(u64::MAX);
        assert!(rtc.day_carry());
        rtc.sync(u64::MAX);
        let mut other = Rtc::new(u64::MAX);
        other.sync(0);
        other.latch(u64::MAX);
    }

    #[test]
    fn restore_masks_values() {
        let mut rtc = Rtc::new(0);
        rtc.restore([0xFF; 5], [0xFF; 5], 0);
        assert_eq!(rtc.registers(), [0x3F, 0x3F, 0x1F, 0xFF, 0xC1]);
        assert_eq!(rtc.latched(), [0x3F, 0x3F, 0x1F, 0xFF, 0xC1]);
        assert!(rtc.halted());
    }
}
