//! What a frame is: where [`crate::Gb::run_frame`] ends one, which is what frame-numbered
//! input (movies, BizHawk's `.bk2` files, scripts) is counted in. The hardware has no frames
//! while the LCD is off, so this is a convention, and a movie must be played with the one it
//! was recorded with ([`FrameRule`]); `docs/timing.md` ("Frames") has the rules and their
//! sources.

use crate::ppu::CYCLES_PER_FRAME as DOTS_PER_FRAME;

/// After the LCD is switched off, dots until the point where BizHawk's Gambatte core takes
/// the screen as blank (4 lines): its first blank frame ends a frame's length after it.
const BLANK_AFTER: u64 = 4 * 456;

/// Which convention ends frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FrameRule {
    /// As BizHawk's Gambatte core counts them (the default): a frame ends at VBlank (line
    /// 144's start) or a frame's length (70,224 dots) after the previous one ended, whichever
    /// comes first; while the LCD is off, blank frames also end 4 lines plus a whole number
    /// (at least one) of frame lengths after it was switched off; and when the LCD is switched
    /// on again before those 4 lines passed, its first VBlank ends no frame.
    #[default]
    BizHawk,
    /// gbhost's rule before core version 2: VBlank, or a frame's length after the previous
    /// frame ended. Movies recorded before the rule was named play with it.
    Legacy,
}

impl FrameRule {
    /// The stable id in state images and movies.
    pub fn id(self) -> u8 {
        match self {
            FrameRule::BizHawk => 0,
            FrameRule::Legacy => 1,
        }
    }

    /// The rule with that id.
    pub fn from_id(id: u8) -> Option<FrameRule> {
        match id {
            0 => Some(FrameRule::BizHawk),
            1 => Some(FrameRule::Legacy),
            _ => None,
        }
    }

    /// Its name, for reports (`bizhawk`, `legacy`).
    pub fn name(self) -> &'static str {
        match self {
            FrameRule::BizHawk => "bizhawk",
            FrameRule::Legacy => "legacy",
        }
    }
}

impl std::fmt::Display for FrameRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The frame clock's state: which rule, and what the rule remembers of the LCD's switching
/// (part of the machine's state image).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameClock {
    /// The rule.
    pub rule: FrameRule,
    /// When the LCD was last switched off, while it is off.
    off_at: Option<u64>,
    /// Whether the screen counts as blank (BizHawk's rule: from 4 lines after a switch-off
    /// until the next frame that ends at VBlank).
    blank: bool,
    /// The next VBlank ends no frame (the LCD came on again while the screen was not blank).
    skip_vblank: bool,
}

impl FrameClock {
    /// A clock for `rule`, as at power-on (the LCD on).
    pub fn new(rule: FrameRule) -> FrameClock {
        FrameClock {
            rule,
            ..FrameClock::default()
        }
    }

    /// The LCD was switched off at `now`.
    pub fn lcd_off(&mut self, now: u64) {
        self.off_at = Some(now);
        self.skip_vblank = false;
    }

    /// The LCD was switched on at `now`.
    pub fn lcd_on(&mut self, now: u64) {
        if let Some(t) = self.off_at.take()
            && now >= t.saturating_add(BLANK_AFTER)
        {
            self.blank = true;
        }
        self.skip_vblank = self.rule == FrameRule::BizHawk && !self.blank;
    }

    /// VBlank started: whether it ends the frame (false once after a quick off and on).
    pub fn vblank_ends_frame(&mut self) -> bool {
        if std::mem::take(&mut self.skip_vblank) {
            return false;
        }
        self.blank = false;
        true
    }

    /// When a frame that starts at `start` ends at the latest (if no VBlank ends it first).
    pub fn deadline(&self, start: u64) -> u64 {
        let budget = start.saturating_add(DOTS_PER_FRAME);
        match (self.rule, self.off_at) {
            (FrameRule::BizHawk, Some(t)) => {
                // Blank frames end at t + 4 lines + k frames, k >= 1: the first after `start`.
                let first = t.saturating_add(BLANK_AFTER + DOTS_PER_FRAME);
                let next = if start < first {
                    first
                } else {
                    let k = (start - first) / DOTS_PER_FRAME + 1;
                    first.saturating_add(k.saturating_mul(DOTS_PER_FRAME))
                };
                budget.min(next)
            }
            _ => budget,
        }
    }

    /// Length of [`FrameClock::to_bytes`].
    pub const LEN: usize = 11;

    /// Its bytes, in state images and BESS's `GBHF` block: the rule's id, the switch-off time
    /// (u64 little-endian, `u64::MAX` while the LCD is on), then the two flags.
    pub fn to_bytes(&self) -> [u8; Self::LEN] {
        let mut b = [0; Self::LEN];
        b[0] = self.rule.id();
        b[1..9].copy_from_slice(&self.off_at.unwrap_or(u64::MAX).to_le_bytes());
        b[9] = u8::from(self.blank);
        b[10] = u8::from(self.skip_vblank);
        b
    }

    /// Read what [`FrameClock::to_bytes`] wrote; `None` for bytes no clock writes.
    pub fn from_bytes(b: &[u8]) -> Option<FrameClock> {
        let b: &[u8; Self::LEN] = b.try_into().ok()?;
        let flag = |v: u8| (v <= 1).then_some(v == 1);
        let off = u64::from_le_bytes(b[1..9].try_into().ok()?);
        Some(FrameClock {
            rule: FrameRule::from_id(b[0])?,
            off_at: (off != u64::MAX).then_some(off),
            blank: flag(b[9])?,
            skip_vblank: flag(b[10])?,
        })
    }

    /// The clock with its switch-off time counted back from `now` (dots before it) instead
    /// of on the machine's clock: for a file read by a machine whose clock reads otherwise
    /// (BESS); [`FrameClock::from_age`] turns it back.
    /// Whole frames are taken off an age past the first blank frame (the later blank frames
    /// fall on the same dots), so the age is under two frames and a half.
    pub fn to_age(self, now: u64) -> FrameClock {
        let first = BLANK_AFTER + DOTS_PER_FRAME;
        let age = |t: u64| {
            let age = now.saturating_sub(t);
            if age > first {
                first + (age - first) % DOTS_PER_FRAME
            } else {
                age
            }
        };
        FrameClock {
            off_at: self.off_at.map(age),
            ..self
        }
    }

    /// The largest age [`FrameClock::to_age`] makes.
    pub const MAX_AGE: u64 = BLANK_AFTER + 2 * DOTS_PER_FRAME;

    /// The switch-off time, as [`FrameClock::to_age`]'s age once it made one.
    pub fn age(&self) -> Option<u64> {
        self.off_at
    }

    /// Undo [`FrameClock::to_age`] on a machine whose clock reads `now`.
    pub fn from_age(self, now: u64) -> FrameClock {
        FrameClock {
            off_at: self.off_at.map(|age| now.saturating_sub(age)),
            ..self
        }
    }

    /// This clock counting by `rule` instead.
    pub fn with_rule(self, rule: FrameRule) -> FrameClock {
        FrameClock { rule, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_frames_follow_the_switch_off() {
        let mut c = FrameClock::new(FrameRule::BizHawk);
        c.lcd_off(1_000);
        // The frame running when the LCD went off ends by its budget.
        assert_eq!(c.deadline(0), DOTS_PER_FRAME);
        // The next one at the first blank frame, 4 lines and a frame after the switch-off.
        let first = 1_000 + BLANK_AFTER + DOTS_PER_FRAME;
        assert_eq!(c.deadline(DOTS_PER_FRAME), first);
        assert_eq!(c.deadline(first), first + DOTS_PER_FRAME);
        assert_eq!(c.deadline(first + 10), first + DOTS_PER_FRAME);
        let legacy = FrameClock::new(FrameRule::Legacy);
        assert_eq!(legacy.deadline(5), 5 + DOTS_PER_FRAME);
    }

    #[test]
    fn bytes_round_trip_and_nonsense_is_refused() {
        let mut c = FrameClock::new(FrameRule::BizHawk);
        c.lcd_off(1234);
        assert_eq!(FrameClock::from_bytes(&c.to_bytes()), Some(c));
        // An age keeps the blank frames' dots.
        let now = 1234 + 5 * DOTS_PER_FRAME + 77;
        let moved = c.to_age(now).from_age(now + 1_000_000);
        let shift = 1_000_000;
        for start in [now, now + 20_000, now + 60_000] {
            assert_eq!(moved.deadline(start + shift), c.deadline(start) + shift);
        }
        let mut bad = c.to_bytes();
        bad[0] = 9;
        assert_eq!(FrameClock::from_bytes(&bad), None);
        bad = c.to_bytes();
        bad[10] = 2;
        assert_eq!(FrameClock::from_bytes(&bad), None);
        assert_eq!(FrameClock::from_bytes(&[0; 3]), None);
    }

    #[test]
    fn a_quick_off_and_on_skips_one_vblank() {
        let mut c = FrameClock::new(FrameRule::BizHawk);
        c.lcd_off(1_000);
        c.lcd_on(1_000 + BLANK_AFTER - 4);
        assert_eq!(c.deadline(0), DOTS_PER_FRAME);
        assert!(!c.vblank_ends_frame());
        assert!(c.vblank_ends_frame());
        // Off long enough: the first VBlank ends the frame.
        c.lcd_off(100_000);
        c.lcd_on(100_000 + BLANK_AFTER);
        assert!(c.vblank_ends_frame());
        // The legacy rule never skips.
        let mut l = FrameClock::new(FrameRule::Legacy);
        l.lcd_off(0);
        l.lcd_on(4);
        assert!(l.vblank_ends_frame());
    }
}
