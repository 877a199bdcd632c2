//! The APU as the CPU sees it (Pan Docs: "Audio", "Audio Registers", "Audio details"): the
//! registers with their read-back masks, NR52 power, the frame sequencer clocked by DIV, and
//! per channel the length counter (with its extra-clocking quirk), trigger, the envelope and DAC
//! switches, and channel 1's frequency sweep with its overflow checks.
//!
//! The envelope's timing against the frame sequencer (its reload on a trigger, the frame
//! sequencer's restart on power-on, the step after the boot ROM) and NRx2 writes while a
//! channel plays ("zombie mode") are in `docs/timing.md`, "The APU", with their sources.
//!
//! Channel 3's position in wave RAM is tracked lazily (from the time of its next fetch), so wave
//! RAM access while it plays and the DMG retrigger corruption behave as on hardware.
//!
//! The CGB's APU differs (Pan Docs "Audio Registers", "Audio details"; Blargg's `cgb_sound`):
//! powering it off clears the length counters too, and while it is off they take no writes
//! either; while channel 3 plays, the CPU reaches the wave RAM byte it is reading at any time
//! (not only in the cycle it reads it); retriggering channel 3 does not corrupt wave RAM.
//! Between CGB revisions only the CPU CGB C's PCM read glitch and NR43 writes are told apart
//! (`Apu::set_cgb_c`); the noise channel's other timing is SameBoy's CGB E model
//! (`docs/timing.md`, "Noise channel").
//!
//! The waveforms (duty squares, wave, noise LFSR), the DACs, NR50/NR51 mixing and the output
//! samples are in `synth.rs`: generated lazily, brought up to date before each register write and
//! frame sequencer step ([`Apu::catch_up`]), never per M-cycle.

mod output;
#[cfg(test)]
mod pcm_tests;
mod ring;
mod synth;
#[cfg(test)]
mod tests;
pub mod view;

pub use ring::{RING_CAPACITY, Sample, SampleRing};
use synth::{NO_LATCH, NOISE_IDLE, Synth, lfsr_step, noise_tick_period};
pub use synth::{SAMPLE_PERIOD, SAMPLE_RATE};

/// Bits that always read as 1, for 0xFF10-0xFF2F.
const READ_MASK: [u8; 0x20] = [
    0x80, 0x3F, 0x00, 0xFF, 0xBF, // NR10-NR14
    0xFF, 0x3F, 0x00, 0xFF, 0xBF, // (FF15) NR21-NR24
    0x7F, 0xFF, 0x9F, 0xFF, 0xBF, // NR30-NR34
    0xFF, 0xFF, 0x00, 0x00, 0xBF, // (FF1F) NR41-NR44
    0x00, 0x00, 0x70, // NR50-NR52
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, // FF27-FF2F
];

/// Register index (address - 0xFF10) of NRx0..NRx4 for channel `ch` (0-3).
const fn reg(ch: usize, n: usize) -> usize {
    ch * 5 + n
}

/// A channel's on/off state, length counter and envelope.
#[derive(Clone, Debug, Default)]
struct Channel {
    /// Playing (NR52 bits 0-3).
    enabled: bool,
    /// The DAC is on (NRx2 bits 3-7 not all 0; NR30 bit 7 for the wave channel).
    dac: bool,
    /// Length counter; counts down to 0 while `length_enabled`.
    length: u16,
    /// NRx4 bit 6.
    length_enabled: bool,
    /// Envelope volume.
    volume: u8,
    /// Envelope timer: frame sequencer step 7s until the next volume step (a period of 0
    /// counts as 8).
    env_timer: u8,
    /// The envelope stopped its automatic updates: a step found the volume at 0 going down or
    /// at 15 going up (until the next trigger). An NRx2 write while the channel plays
    /// ("zombie mode", [`zombie_volume`]) tells the two states apart.
    env_stopped: bool,
}

/// Where the bus's clocks stand at an APU register write ([`Apu::write_at`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WriteClock {
    /// Dots since the last edge of the APU's 1 MHz clock (0-3; [`Apu::clock_lag`]).
    pub lag: u64,
    /// Time of the next frame sequencer step (a falling edge of DIV bit 4, bit 5 at double
    /// speed), after the write; `u64::MAX` when unknown.
    pub fs_next: u64,
    /// Dots per M-cycle: 4, 2 at double speed.
    pub mcycle: u64,
}

impl WriteClock {
    /// A write with no bus behind it (tests, the boot state): the 1 MHz clock on an edge,
    /// no frame sequencer step in sight.
    pub(crate) const NONE: WriteClock = WriteClock {
        lag: 0,
        fs_next: u64::MAX,
        mcycle: 4,
    };
}

/// Dots between two frame sequencer steps (512 Hz): the period of system counter bit 12 (bit
/// 13 at double speed, where the counter runs twice as fast).
pub(crate) const FS_PERIOD: u64 = 1 << 13;

/// A trigger counts the frame sequencer step this many dots ahead when it reloads the
/// envelope timer: Gambatte's `sound/ch2_init_reset_env_counter_timing_9` against `_11` (a
/// trigger 8 dots before step 6 is not extended, 4 dots before it is, DMG and CGB), `_13`
/// against `_15` (the same at the CGB's phase), while the step itself is seen at its own
/// dot (`_1` against `_2`: a write 4 dots before step 7 sees the old volume, one on it the
/// new).
const ENV_TRIGGER_LOOKAHEAD: u64 = 4;

/// The envelope timer's reload for NRx2 = `nrx2`: its period, 0 counting as 8 (Pan Docs
/// "Obscure Behavior").
fn env_period(nrx2: u8) -> u8 {
    match nrx2 & 7 {
        0 => 8,
        p => p,
    }
}

/// The volume after NRx2 changes from `old` to `new` while the channel plays ("zombie
/// mode", Pan Docs "Obscure Behavior", the rules of the CGB-02/04; SameBoy applies the same
/// to the DMG and CGB C as two writes, `old` to 0xFF to `new`): if the old period was 0
/// and the envelope still updates, the volume goes up 1, else if the old mode was decrease
/// it goes up 2; then if the mode changed it becomes 16 minus itself; only the low 4 bits
/// are kept. The timer and the stopped state are untouched.
fn zombie_volume(volume: u8, old: u8, new: u8, stopped: bool) -> u8 {
    let mut v = volume;
    if old & 7 == 0 && !stopped {
        v += 1;
    } else if old & 8 == 0 {
        v += 2;
    }
    if (old ^ new) & 8 != 0 {
        v = 16 - (v & 0xF);
    }
    v & 0xF
}

/// Channel 1's frequency sweep.
#[derive(Clone, Debug)]
struct Sweep {
    timer: u8,
    shadow: u16,
    enabled: bool,
    /// A calculation in subtract mode happened since the last trigger.
    negate_used: bool,
    /// When the calculation of the sweep step whose timer ran out is done
    /// ([`SWEEP_CALC_DELAY`] after the step); `u64::MAX` if none is pending.
    calc_at: u64,
}

impl Default for Sweep {
    fn default() -> Sweep {
        Sweep {
            timer: 0,
            shadow: 0,
            enabled: false,
            negate_used: false,
            calc_at: u64::MAX,
        }
    }
}

/// APU state.
#[derive(Clone, Debug)]
pub struct Apu {
    /// 0xFF10-0xFF2F as last written (NR52 holds only the power bit here).
    regs: [u8; 0x20],
    /// Wave RAM, 0xFF30-0xFF3F.
    wave_ram: [u8; 0x10],
    /// The four channels.
    ch: [Channel; 4],
    /// Channel 1's sweep.
    sweep: Sweep,
    /// The frame sequencer step that runs next (0-7, or [`FS_DEAD_STEP`]).
    fs_step: u8,
    /// Channel 3's playback position.
    wave: WavePos,
    /// At double speed the frame sequencer's steps land a dot after the counter's edges (the
    /// CPU sees them an M-cycle later): false from NR52's power-on, flipped by every switch to
    /// double speed ([`Apu::switched_to_double_speed`]).
    fs_late: bool,
    /// The dot, modulo 4, of the APU's 1 MHz clock's edges (the square channels' timers
    /// start from one on a trigger): 2 from power-on, moved by [`Apu::delay`].
    clock_phase: u8,
    /// The waveform generators' phases and the partial output sample.
    synth: Synth,
    /// Output samples waiting for the host (not machine state: a snapshot need not keep them).
    out: SampleRing,
    /// The CGB's APU (its differences from the DMG's: see `Apu::write`); set from the model,
    /// not part of the state image.
    cgb: bool,
    /// The CPU CGB C's APU (NR43's write glitch); set from the model and revision, not part
    /// of the state image.
    cgb_c: bool,
}

/// Where channel 3 is in wave RAM, advanced lazily from the time of its next sample fetch.
#[derive(Clone, Debug, Default)]
struct WavePos {
    /// Sample index 0-31 (two per byte, high nibble first).
    pos: u8,
    /// Time of the next fetch.
    next: u64,
    /// Time of the last fetch (the only moment the CPU can reach wave RAM while it plays).
    last: u64,
}

/// Channel 3's fetch timing, pinned by Blargg dmg_sound 09, 10 and 12 (which pass for delays of
/// 5-6, windows of 1-3 and retrigger margins of 3-4; these are the middle values): after a
/// trigger the first fetch comes one period plus `WAVE_TRIGGER_DELAY` T-cycles later; the CPU
/// reaches wave RAM while the channel plays only within `WAVE_ACCESS_WINDOW` T-cycles of a
/// fetch; a retrigger less than `WAVE_RETRIGGER_MARGIN` T-cycles before a fetch corrupts the
/// first bytes of wave RAM.
const WAVE_TRIGGER_DELAY: u64 = 6;
/// See [`WAVE_TRIGGER_DELAY`].
const WAVE_ACCESS_WINDOW: u64 = 2;
/// See [`WAVE_TRIGGER_DELAY`].
const WAVE_RETRIGGER_MARGIN: u64 = 4;

/// Dots from the 1 MHz edge at or before a trigger of a square channel that was off to its
/// first duty step, beyond one period, at double speed: Gambatte's
/// `sound/ch1_duty0_pos6_to_pos7_timing_ds_1`-`_ds_6` (the trigger on either half of the 1 MHz
/// clock: the step falls on the same dot), `speedchange2_*_ds_*`, `speedchange*_nr4init_*`.
const SQUARE_TRIGGER_DELAY: u64 = 8;
/// The same at normal speed, a dot sooner: with the CPU's M-cycles 2 dots after the 1 MHz
/// edges (from power-on) a trigger is 5 dots and a period before the first step. Gambatte's
/// `speedchange2_ch1_duty0_pos6_to_pos7_timing_nop_2`, `speedchange3_*_timing_2`,
/// `speedchange3_*_nop_2` (a square triggered at normal speed, retriggered after two or
/// three switches: the step must be a dot before the retrigger, where 8 dots put it a dot
/// after); every other `*pos6_to_pos7*` test, both models, admits it (the normal-speed
/// `sound/ch1_duty0_pos6_to_pos7_timing_1`/`_2`: a retrigger 449 M-cycles after the trigger,
/// 7 periods of 64 M-cycles and 5 dots, still sees step 6; at 450 it sees step 7).
const SQUARE_TRIGGER_DELAY_NORMAL_SPEED: u64 = 7;
/// [`Apu::clock_phase`] from power-on: the CPU's M-cycles (at dots 0 modulo 4) fall 2 dots
/// after the 1 MHz clock's edges (Gambatte's `sound/ch1_duty0_pos6_to_pos7_timing_ds_1`-`_ds_6`:
/// at double speed a trigger at dot 0 modulo 4 waits 2 dots longer than one at dot 2).
const CLOCK_PHASE_AT_POWER_ON: u8 = 2;
/// [`Apu::fs_step`] after NR52 powers the APU on while the system counter's frame sequencer
/// bit is 1: the first falling edge of that bit does nothing, the one after runs step 0
/// (SameBoy's `skip_div_event`; Gambatte starts its sequencer a step earlier then).
const FS_DEAD_STEP: u8 = 8;
/// Dots before a sweep step (2 or 6) within which a trigger of channel 1 does not count that
/// step: a trigger in the M-cycle that ends 4 dots before the step reloads the sweep timer
/// after it, one 8 dots before is counted by it (Gambatte's
/// `sound/ch1_init_reset_sweep_counter_timing_3`, `_4` on the DMG; Gambatte's own model
/// widens the window to 8 dots on the CGB, which no test here tells apart).
const SWEEP_TRIGGER_WINDOW: u64 = 4;
/// Dots from a sweep step whose timer ran out to its calculation (its overflow check and
/// frequency write-back): an NR52 read at the step still sees channel 1 on, one an M-cycle
/// later sees it off (Gambatte's `sound/ch1_init_reset_sweep_counter_timing_nr52_1`,
/// `nr52_2`, `nr52_3`, `nr52_4`; Gambatte's own model runs the sweep 2 of its 2 MHz cycles
/// after the step; SameBoy's finishes the calculation a few APU cycles after it too).
const SWEEP_CALC_DELAY: u64 = 4;
/// The same for a trigger while the channel plays (Gambatte's model: 2 APU cycles sooner).
const SQUARE_RETRIGGER_DELAY: u64 = 4;

/// The frame sequencer step the DMG runs next at 0x0100 (the boot ROM powers the APU on and
/// runs on for many steps; from our post-boot system counter the next falling edge of DIV
/// bit 4 is step 1): Gambatte's `sound/ch2_init_env_counter_timing_1` to `_4` (a channel
/// triggered at 0x0150 with an envelope period of 1 takes its first step 57,344 dots later;
/// `_1` against `_2`: that step falls between two writes 4 dots apart, on the seventh
/// falling edge after the trigger).
const POST_BOOT_FS_STEP_DMG: u8 = 1;
/// The same on the CGB (its boot ROM runs for another time, its system counter is at
/// another phase): step 0; `_3` (CGB: not yet) against `_4` (CGB: stepped) put step 7 on
/// our eighth edge.
const POST_BOOT_FS_STEP_CGB: u8 = 0;

impl Apu {
    /// The APU as the DMG boot ROM leaves it: powered, channel 1 on (the boot sound).
    pub fn post_boot() -> Apu {
        let mut apu = Apu::power_on();
        for (addr, v) in [
            (0xFF10u16, 0x80u8),
            (0xFF11, 0xBF),
            (0xFF12, 0xF3),
            // The boot sound's second note: frequency 0x7C1 (a duty step every 252 dots).
            (0xFF13, 0xC1),
            (0xFF14, 0xBF),
            (0xFF16, 0x3F),
            (0xFF19, 0xBF),
            (0xFF1A, 0x7F),
            (0xFF1B, 0xFF),
            (0xFF1C, 0x9F),
            (0xFF1E, 0xBF),
            (0xFF20, 0xFF),
            (0xFF23, 0xBF),
            (0xFF24, 0x77),
            (0xFF25, 0xF3),
        ] {
            apu.regs[usize::from(addr - 0xFF10)] = v;
        }
        apu.regs[0x16] = 0x80;
        apu.ch[0].enabled = true;
        apu.ch[0].dac = true;
        apu.fs_step = POST_BOOT_FS_STEP_DMG;
        apu
    }

    /// Channel 1's duty phase as the boot ROM leaves it at 0x0100, `now` (after
    /// [`Apu::start_clock`]): still playing the boot sound's second note (duty 2, a step every
    /// 252 dots), the DMG's at step 2 with the next step 26 dots on, the CGB's at step 6 with
    /// the next 150 dots on (both on the 1 MHz clock's edges). Gambatte's
    /// `sound/ch1_init_pos_1`-`_8` (a retrigger freezes the step: on the DMG one 132 M-cycles
    /// after 0x0100 finds step 4, 133 step 5, 384 step 0, 385 step 1; on the CGB 163 step 0,
    /// 164 step 1, 415 step 4, 416 step 5); Gambatte's post-boot state agrees within 2 dots
    /// (its `initstate.cpp`). The CGB's in DMG compatibility mode, whose boot ROM runs longer,
    /// is not measured: the CGB mode's is used. The frame sequencer's next step is the model's
    /// too ([`POST_BOOT_FS_STEP_DMG`], [`POST_BOOT_FS_STEP_CGB`]).
    pub(crate) fn set_boot_phase(&mut self, now: u64, cgb: bool) {
        let (pos, next) = if cgb { (6, 150) } else { (2, 26) };
        self.fs_step = if cgb {
            POST_BOOT_FS_STEP_CGB
        } else {
            POST_BOOT_FS_STEP_DMG
        };
        self.synth.duty_pos[0] = pos;
        self.synth.square_next[0] = now + next;
        self.synth.high[0] = synth::duty_bit(synth::DUTY[usize::from(self.regs[1] >> 6)], pos);
        self.synth.latch_at[0] = NO_LATCH;
    }

    /// Registers at power-on (before a boot ROM runs): all zero, powered off.
    pub fn power_on() -> Apu {
        Apu {
            regs: [0; 0x20],
            wave_ram: [0; 0x10],
            ch: Default::default(),
            sweep: Sweep::default(),
            fs_step: 0,
            wave: WavePos::default(),
            fs_late: false,
            clock_phase: CLOCK_PHASE_AT_POWER_ON,
            synth: Synth::default(),
            out: SampleRing::default(),
            cgb: false,
            cgb_c: false,
        }
    }

    /// Make this the CGB's APU (or the DMG's).
    pub(crate) fn set_cgb(&mut self, cgb: bool) {
        self.cgb = cgb;
    }

    /// Whether this is the CPU CGB C's APU (the CGB model at its default revision).
    pub(crate) fn set_cgb_c(&mut self, cgb_c: bool) {
        self.cgb_c = cgb_c;
    }

    /// NR52 bit 7: the APU is on.
    pub(crate) fn powered(&self) -> bool {
        self.regs[0x16] & 0x80 != 0
    }

    /// Read 0xFF10-0xFF3F.
    pub fn read(&self, addr: u16, now: u64) -> u8 {
        match addr {
            0xFF26 => {
                let mut v = (self.regs[0x16] & 0x80) | 0x70;
                for (i, c) in self.ch.iter().enumerate() {
                    if c.enabled {
                        v |= 1 << i;
                    }
                }
                v
            }
            0xFF10..=0xFF2F => {
                let i = usize::from(addr - 0xFF10);
                self.regs[i] | READ_MASK[i]
            }
            0xFF30..=0xFF3F => {
                if self.ch[2].enabled {
                    // While channel 3 plays, the CPU reaches only the byte it is fetching, and
                    // on the DMG only in the cycle it fetches it; otherwise it reads 0xFF.
                    let w = self.wave_at(now);
                    if self.cgb || now - w.last < WAVE_ACCESS_WINDOW {
                        self.wave_ram[usize::from(w.pos / 2)]
                    } else {
                        0xFF
                    }
                } else {
                    self.wave_ram[usize::from(addr - 0xFF30)]
                }
            }
            _ => 0xFF,
        }
    }

    /// Write 0xFF10-0xFF3F. While powered off only NR52, wave RAM and (on the DMG) the length
    /// counters take writes. The write is taken on an edge of the APU's 1 MHz clock (see
    /// `Apu::write_at`).
    pub fn write(&mut self, addr: u16, v: u8, now: u64) {
        self.write_at(addr, v, now, WriteClock::NONE);
    }

    /// [`Apu::write`] at `now` with the bus's clocks as `clock` says: the APU's 1 MHz clock
    /// (a square channel's trigger starts its timer from that clock's last edge) and the next
    /// frame sequencer step (the envelope's reload and the sweep's window on a trigger). NR52
    /// here powers on with no dead step; the bus writes it through [`Apu::write_nr52_at`],
    /// which knows the system counter's bit.
    pub(crate) fn write_at(&mut self, addr: u16, v: u8, now: u64, clock: WriteClock) {
        // The generators run with the old values up to now.
        self.catch_up(now);
        if (0xFF30..=0xFF3F).contains(&addr) {
            if self.ch[2].enabled {
                let w = self.wave_at(now);
                if self.cgb || now - w.last < WAVE_ACCESS_WINDOW {
                    self.wave_ram[usize::from(w.pos / 2)] = v;
                }
            } else {
                self.wave_ram[usize::from(addr - 0xFF30)] = v;
            }
            return;
        }
        if !(0xFF10..=0xFF2F).contains(&addr) {
            return;
        }
        let i = usize::from(addr - 0xFF10);
        if addr == 0xFF26 {
            self.write_nr52(v, false, now);
            return;
        }
        if !self.powered() {
            // DMG: the length counters stay writable while the APU is off (not the CGB).
            if self.cgb {
                return;
            }
            match i {
                0x01 | 0x06 | 0x10 => self.ch[i / 5].length = 64 - u16::from(v & 0x3F),
                0x0B => self.ch[2].length = 256 - u16::from(v),
                _ => {}
            }
            return;
        }
        if (i == 0x0D || i == 0x0E) && self.ch[2].enabled {
            // Bring channel 3's position up to now before its frequency changes.
            self.wave = self.wave_at(now);
        }
        let old = self.regs[i];
        if i == reg(3, 3) {
            self.write_nr43(old, v, now);
        }
        self.regs[i] = v;
        let ch = i / 5;
        match (ch, i % 5) {
            // Leaving subtract mode after a subtract calculation disables channel 1.
            (0, 0) if old & 0x08 != 0 && v & 0x08 == 0 && self.sweep.negate_used => {
                self.ch[0].enabled = false;
            }
            (2, 0) => {
                self.ch[2].dac = v & 0x80 != 0;
                if !self.ch[2].dac {
                    self.ch[2].enabled = false;
                }
            }
            (2, 1) => self.ch[2].length = 256 - u16::from(v),
            (c, 1) if c < 4 => self.ch[c].length = 64 - u16::from(v & 0x3F),
            (c, 2) if c != 2 && c < 4 => self.write_nrx2(c, old, v, now),
            (c, 4) if c < 4 => self.write_nrx4(c, v, now, clock),
            (3, 3) => self.synth.noise_next = self.synth.noise_step_at(v),
            _ => {}
        }
    }

    /// NRx2 of channel `c` (not the wave channel) written with `v` over `old`: a DAC switch,
    /// and while the channel plays, the volume changes as [`zombie_volume`] says.
    fn write_nrx2(&mut self, c: usize, old: u8, v: u8, now: u64) {
        if c == 3 && v & 0xF8 == 0 && self.ch[3].enabled && self.regs[reg(3, 3)] & 7 != 0 {
            self.noise_dac_off(now);
        }
        let chan = &mut self.ch[c];
        chan.dac = v & 0xF8 != 0;
        if !chan.dac {
            chan.enabled = false;
        } else if chan.enabled {
            chan.volume = zombie_volume(chan.volume, old, v, chan.env_stopped);
        }
    }

    /// Write NR52 at `now`, with `fs_bit_high` telling whether the system counter's frame
    /// sequencer bit (12, 13 at double speed) is 1 then: powering on with it high skips the
    /// first step ([`FS_DEAD_STEP`]).
    pub(crate) fn write_nr52_at(&mut self, v: u8, now: u64, fs_bit_high: bool) {
        self.catch_up(now);
        self.write_nr52(v, fs_bit_high, now);
    }

    fn write_nr52(&mut self, v: u8, fs_bit_high: bool, now: u64) {
        let was_on = self.powered();
        if v & 0x80 == 0 {
            if was_on {
                // Power off: every register clears; the DMG keeps the length counters.
                let lengths = if self.cgb {
                    [0; 4]
                } else {
                    [
                        self.ch[0].length,
                        self.ch[1].length,
                        self.ch[2].length,
                        self.ch[3].length,
                    ]
                };
                self.regs = [0; 0x20];
                self.ch = Default::default();
                for (c, len) in self.ch.iter_mut().zip(lengths) {
                    c.length = len;
                }
                self.sweep = Sweep::default();
                self.synth.power_off();
            }
        } else if !was_on {
            self.regs[0x16] = 0x80;
            // The 2 MHz alignment counts from here (SameBoy's `GB_apu_init` zeroes it).
            self.synth.on_phase = (now % 8) as u8;
            // The frame sequencer restarts so that its next step is step 0, after a dead
            // step if the counter's bit is high.
            self.fs_step = if fs_bit_high { FS_DEAD_STEP } else { 0 };
            self.fs_late = false;
        }
    }

    /// The step the frame sequencer runs next as a trigger at `now` sees it: the step after
    /// `fs_step` if a step falls within [`ENV_TRIGGER_LOOKAHEAD`] dots (after the dead step
    /// of a power-on, [`FS_DEAD_STEP`], step 0).
    fn fs_step_seen_by_trigger(&self, now: u64, clock: WriteClock) -> u8 {
        if clock.fs_next <= now.saturating_add(ENV_TRIGGER_LOOKAHEAD) {
            if self.fs_step == FS_DEAD_STEP {
                0
            } else {
                (self.fs_step + 1) & 7
            }
        } else {
            self.fs_step
        }
    }

    /// The frame sequencer's steps at double speed land a dot after the counter's edges
    /// (see the field; the bus schedules the steps).
    pub(crate) fn fs_late(&self) -> bool {
        self.fs_late
    }

    /// The CGB switched to double speed: the frame sequencer's steps move to the other half of
    /// the CPU's M-cycle. After an odd number of switches to double speed since NR52's
    /// power-on, an NR52 read at double speed sees a length counter's step an M-cycle after
    /// the counter's edge; after an even number (none included) at the edge (Gambatte's
    /// `speedchange_ch2_nr52_*`, `speedchange2_ch2_nr52_ds_*`, `speedchange5_ch2_nr52_*`
    /// against `speedchange3_ch2_nr52_*` and `sound/ch2_late_reset_nr52_ds_*`).
    pub(crate) fn switched_to_double_speed(&mut self) {
        self.fs_late = !self.fs_late;
    }

    /// Dots since the last edge of the APU's 1 MHz clock at `now` (0-3).
    pub(crate) fn clock_lag(&self, now: u64) -> u64 {
        (now + 4 - u64::from(self.clock_phase)) % 4
    }

    /// The APU stands `dots` dots at `now` while the CPU runs on, as the PPU does at the
    /// switch back to normal speed ([`crate::ppu::Ppu::delay`]): every generator's next edge
    /// and the 1 MHz clock move that much later (Gambatte's
    /// `speedchange_ch1_duty0_pos6_to_pos7_timing_nop_ds_1`, `speedchange2_*_ds_1`: a square
    /// triggered at double speed steps a dot later, against the CPU, after the switch back).
    pub(crate) fn delay(&mut self, now: u64, dots: u64) {
        self.catch_up(now);
        for c in 0..2 {
            self.synth.square_next[c] += dots;
            if self.synth.latch_at[c] != NO_LATCH {
                self.synth.latch_at[c] += dots;
            }
        }
        if self.synth.noise_next != u64::MAX {
            self.synth.noise_next += dots;
        }
        self.synth.noise_counter_to(now, self.regs[reg(3, 3)]);
        if self.synth.noise_tick != NOISE_IDLE {
            self.synth.noise_tick = self.synth.noise_tick.saturating_add(dots);
        }
        self.wave.next += dots;
        self.clock_phase = ((u64::from(self.clock_phase) + dots) % 4) as u8;
    }

    /// The frame sequencer's next step clocks the length counters (steps 0, 2, 4 and 6; not
    /// the dead step after a power-on).
    fn next_step_clocks_length(&self) -> bool {
        self.fs_step & 1 == 0 && self.fs_step != FS_DEAD_STEP
    }

    /// The frame sequencer's next step clocks the sweep (steps 2 and 6).
    fn sweep_step_next(&self) -> bool {
        self.fs_step == 2 || self.fs_step == 6
    }

    /// Length maximum of channel `c`.
    fn max_length(c: usize) -> u16 {
        if c == 2 { 256 } else { 64 }
    }

    fn write_nrx4(&mut self, c: usize, v: u8, now: u64, clock: WriteClock) {
        // The next frame sequencer step does not clock lengths: enabling the length counter
        // now clocks it once (the "extra length clocking" quirk).
        let quiet_half = !self.next_step_clocks_length();
        let was_enabled = self.ch[c].length_enabled;
        self.ch[c].length_enabled = v & 0x40 != 0;
        if quiet_half && !was_enabled && self.ch[c].length_enabled && self.ch[c].length > 0 {
            self.ch[c].length -= 1;
            if self.ch[c].length == 0 && v & 0x80 == 0 {
                self.ch[c].enabled = false;
            }
        }
        if v & 0x80 != 0 {
            if c == 2 {
                self.trigger_wave(now);
            }
            self.trigger(c, quiet_half, now, clock);
        }
    }

    fn trigger(&mut self, c: usize, quiet_half: bool, now: u64, clock: WriteClock) {
        // The envelope's next step would be the imminent step 7: it is skipped (one period
        // more; Pan Docs "Obscure Behavior").
        let env_extra = u8::from(self.fs_step_seen_by_trigger(now, clock) == 7);
        match c {
            0 | 1 => {
                // The square's timer restarts from the 1 MHz clock's last edge; its first duty
                // step comes a period and 8 dots after that edge (7 at normal speed), 4 dots
                // if the channel was already playing (then its output keeps its level and a
                // latch still due is taken; from off it is 0 until the first step's latch).
                // The duty step counter itself is not reset.
                let was_on = self.ch[c].enabled;
                let delay = match (was_on, clock.mcycle == 2) {
                    (true, _) => SQUARE_RETRIGGER_DELAY,
                    (false, true) => SQUARE_TRIGGER_DELAY,
                    (false, false) => SQUARE_TRIGGER_DELAY_NORMAL_SPEED,
                };
                let edge = now - clock.lag.min(now);
                self.synth.square_next[c] = edge + self.square_period(c) + delay;
                if !was_on {
                    self.synth.high[c] = false;
                    self.synth.latch_at[c] = NO_LATCH;
                }
            }
            3 => self.trigger_noise(now),
            _ => {}
        }
        let chan = &mut self.ch[c];
        chan.enabled = chan.dac;
        if chan.length == 0 {
            chan.length = Self::max_length(c);
            if chan.length_enabled && quiet_half {
                chan.length -= 1;
            }
        }
        if c != 2 {
            let nrx2 = self.regs[reg(c, 2)];
            chan.volume = nrx2 >> 4;
            chan.env_timer = env_period(nrx2) + env_extra;
            chan.env_stopped = false;
        }
        if c == 0 {
            let nr10 = self.regs[0];
            let period = (nr10 >> 4) & 7;
            let shift = nr10 & 7;
            self.sweep.shadow = self.frequency(0);
            self.sweep.timer = if period == 0 { 8 } else { period };
            if self.sweep_step_next() && clock.fs_next.saturating_sub(now) <= SWEEP_TRIGGER_WINDOW {
                // The sweep step about to run is not counted: the timer runs its full
                // period from the step after.
                self.sweep.timer += 1;
            }
            self.sweep.enabled = period != 0 || shift != 0;
            self.sweep.negate_used = false;
            self.sweep.calc_at = u64::MAX;
            if shift != 0 {
                self.sweep_calculate();
            }
        }
    }

    /// T-cycles between channel 3's sample fetches.
    fn wave_period(&self) -> u64 {
        (2048 - u64::from(self.frequency(2))) * 2
    }

    /// Channel 3's position at `now`.
    fn wave_at(&self, now: u64) -> WavePos {
        let mut w = self.wave.clone();
        if w.next <= now {
            let period = self.wave_period();
            let steps = (now - w.next) / period + 1;
            w.pos = ((u64::from(w.pos) + steps) % 32) as u8;
            w.last = w.next + (steps - 1) * period;
            w.next = w.last + period;
        }
        w
    }

    /// The 2 MHz APU clock's phase at `now` modulo 4 APU cycles (SameBoy's
    /// `noise_channel.alignment & 3`): 2-dot units since NR52's last power-on, which zeroes
    /// it. At normal speed a CPU write k M-cycles after the power-on sees 2k mod 4 (0 or 2),
    /// at double speed any of 0-3.
    fn noise_alignment(&self, now: u64) -> u64 {
        ((now + 8 - u64::from(self.synth.on_phase)) % 8) / 2
    }

    /// Trigger channel 4 at `now` (CGB-E as SameBoy models it; `docs/timing.md`, "Noise
    /// channel"): the LFSR clears, the counter keeps its value and its next increment comes
    /// after a countdown that depends on the divisor code and the 2 MHz clock's alignment.
    fn trigger_noise(&mut self, now: u64) {
        let nr43 = self.regs[reg(3, 3)];
        let shift = nr43 >> 4;
        let align = self.noise_alignment(now);
        let was_on = self.ch[3].enabled;
        let s = &mut self.synth;
        s.noise_counter_to(now, nr43);
        let was_counting = s.noise_tick != NOISE_IDLE;
        let mut r = u64::from(nr43 & 7);
        let mut instant_step = false;
        if was_counting {
            // APU cycles (2 dots) left to the pending increment.
            let left = (s.noise_tick - now).div_ceil(2);
            if r > 1 && left == 1 {
                // The increment due in the next APU cycle is taken now.
                s.noise_counter = (s.noise_counter + 1) & 0x3FFF;
            } else if left == 2 && align == 0 && was_on {
                if r == 0 {
                    r = 8;
                } else if r == 1 {
                    let before = s.noise_counter_bit(shift);
                    s.noise_counter = (s.noise_counter + 1) & 0x3FFF;
                    instant_step = !before && s.noise_counter_bit(shift);
                }
            }
        }
        // Started with the DAC off, the counter's first increment comes 4 APU cycles later.
        let dac_off_extra = if r > 1 && !self.ch[3].dac && align == 0 {
            4
        } else {
            0
        };
        let countdown =
            Self::noise_trigger_countdown(r, align, was_on, was_counting, shift) + dac_off_extra;
        let s = &mut self.synth;
        s.noise_tick = now + 2 * countdown;
        s.lfsr = if r == 0 && was_on && align == 3 {
            0x0055
        } else {
            0
        };
        if instant_step {
            s.lfsr = lfsr_step(s.lfsr, nr43 & 0x08 != 0);
        }
        s.noise_next = s.noise_step_at(nr43);
    }

    /// APU cycles from a trigger of channel 4 to its counter's first increment, for divisor
    /// code `r` (8 for a code 0 caught 2 cycles before an increment), 2 MHz alignment `align`,
    /// whether the channel played and its counter counted, and NR43's shift (SameBoy's
    /// `prepare_noise_start` for revisions after CGB-C).
    fn noise_trigger_countdown(
        r: u64,
        align: u64,
        was_on: bool,
        was_counting: bool,
        shift: u8,
    ) -> u64 {
        let base: i64 = if r == 0 { 6 } else { 4 * r as i64 + 6 };
        let odd = align & 1 != 0;
        let high = align & 2 != 0;
        let mut d: i64 = match (r, odd, high) {
            (0, true, _) if was_counting => -1,
            (0, true, _) => 1,
            (0, false, _) => 0,
            (1, true, true) if !was_on => 1,
            (_, true, true) => -3,
            (1, true, false) if was_on => -5,
            (_, true, false) => -1,
            (_, false, true) => -2,
            (1, false, false) if was_on && shift == 0 => -4,
            (1, false, false) => 0,
            (_, false, false) => -4,
        };
        if r == 1 && was_counting && !was_on && align == 0 {
            d -= 4;
        }
        (base + d).max(1) as u64
    }

    /// NR43 written with `v` over `old` at `now` (the generators brought up to `now`): the
    /// counter's increments so far count with the old divisor; an increment taken just now
    /// reloads with the new divisor and an alignment offset; the LFSR steps if the counter
    /// bit the shift selects rises (`docs/timing.md`, "Noise channel").
    fn write_nr43(&mut self, old: u8, v: u8, now: u64) {
        let align = self.noise_alignment(now) as usize;
        let s = &mut self.synth;
        let pending = s.noise_tick;
        s.noise_counter_to(now, old);
        if s.noise_tick == NOISE_IDLE {
            return;
        }
        // An increment at the write's own dot (not a trigger's countdown ending later).
        if pending <= now && s.noise_tick - noise_tick_period(old) == now {
            let r = u64::from(v & 7);
            let countdown = if r == 0 {
                2
            } else {
                // The CPU CGB C waits 4 cycles more at alignment 2 (SameBoy).
                let extra = if self.cgb_c {
                    [2, 1, 4, 3]
                } else {
                    [2, 1, 0, 3]
                };
                4 * r + extra[align]
            };
            s.noise_tick = now + 2 * countdown;
        }
        if !self.ch[3].enabled {
            return;
        }
        if self.cgb_c {
            // The CPU CGB C's register passes through $FF on every write.
            s.nr43_select_cgb_c(old, 0xFF);
            s.nr43_select_cgb_c(0xFF, v);
        } else {
            s.nr43_select(old, v);
        }
    }

    /// Channel 4's DAC turned off at `now` while it plays with a divisor code other than 0:
    /// the counter stops (an increment due within 2 APU cycles is taken first).
    fn noise_dac_off(&mut self, now: u64) {
        let s = &mut self.synth;
        s.noise_counter_to(now, self.regs[reg(3, 3)]);
        if s.noise_tick != NOISE_IDLE && s.noise_tick - now <= 4 {
            s.noise_counter = (s.noise_counter + 1) & 0x3FFF;
        }
        s.noise_tick = NOISE_IDLE;
    }

    /// Trigger channel 3: a retrigger just as it fetches fills its buffer with wave RAM's
    /// byte 0 (on the DMG after corrupting the first bytes of wave RAM); the position restarts.
    fn trigger_wave(&mut self, now: u64) {
        if self.ch[2].enabled {
            let w = self.wave_at(now);
            if w.next - now < WAVE_RETRIGGER_MARGIN {
                if !self.cgb {
                    let byte = usize::from(((w.pos + 1) % 32) / 2);
                    if byte < 4 {
                        self.wave_ram[0] = self.wave_ram[byte];
                    } else {
                        let block = byte & !3;
                        self.wave_ram.copy_within(block..block + 4, 0);
                    }
                }
                // The fetch that was due reads the restarted position: byte 0 fills the
                // buffer (SameBoy's NR34 trigger with `sample_countdown == 0`, every model).
                self.synth.wave_byte = self.wave_ram[0];
            }
        }
        self.wave = WavePos {
            pos: 0,
            next: now + self.wave_period() + WAVE_TRIGGER_DELAY,
            last: 0,
        };
        // The position is 0 before the first fetch: the output shows the buffer's high
        // nibble (SameBoy's NR34 trigger; the buffer itself keeps the last byte fetched).
        self.synth.wave_sample = self.synth.wave_byte >> 4;
    }

    /// Channel `c`'s 11-bit frequency from NRx3/NRx4.
    fn frequency(&self, c: usize) -> u16 {
        u16::from(self.regs[reg(c, 3)]) | (u16::from(self.regs[reg(c, 4)] & 7) << 8)
    }

    /// The sweep's next frequency; above 2047 it disables channel 1.
    fn sweep_calculate(&mut self) -> u16 {
        let nr10 = self.regs[0];
        let delta = self.sweep.shadow >> (nr10 & 7);
        let new = if nr10 & 0x08 != 0 {
            self.sweep.negate_used = true;
            self.sweep.shadow.wrapping_sub(delta)
        } else {
            self.sweep.shadow + delta
        };
        if new > 2047 {
            self.ch[0].enabled = false;
        }
        new
    }

    /// A sweep step at `now`: the timer counts down; when it runs out it reloads, and the
    /// calculation follows [`SWEEP_CALC_DELAY`] later ([`Apu::run_sweep`]).
    fn clock_sweep(&mut self, now: u64) {
        if self.sweep.timer > 0 {
            self.sweep.timer -= 1;
        }
        if self.sweep.timer != 0 {
            return;
        }
        let period = (self.regs[0] >> 4) & 7;
        self.sweep.timer = if period == 0 { 8 } else { period };
        if self.sweep.enabled {
            self.sweep.calc_at = now + SWEEP_CALC_DELAY;
        }
    }

    /// When the APU next needs the bus to call [`Apu::run_sweep`] (`u64::MAX`: never).
    pub(crate) fn next_event(&self) -> u64 {
        self.sweep.calc_at
    }

    /// The sweep calculation due at `now` ([`Apu::next_event`]): with NR10's period (as it
    /// is now) not 0, the new frequency is computed, and channel 1 stops if it is above 2047;
    /// else, with a shift, it is written back and checked again.
    pub(crate) fn run_sweep(&mut self, now: u64) {
        if self.sweep.calc_at > now {
            return;
        }
        self.sweep.calc_at = u64::MAX;
        self.catch_up(now);
        let nr10 = self.regs[0];
        if self.sweep.enabled && (nr10 >> 4) & 7 != 0 {
            let new = self.sweep_calculate();
            if new <= 2047 && nr10 & 7 != 0 {
                self.sweep.shadow = new;
                self.regs[3] = new as u8;
                self.regs[4] = (self.regs[4] & !7) | ((new >> 8) as u8 & 7);
                self.sweep_calculate();
            }
        }
    }

    fn clock_lengths(&mut self) {
        for c in &mut self.ch {
            if c.length_enabled && c.length > 0 {
                c.length -= 1;
                if c.length == 0 {
                    c.enabled = false;
                }
            }
        }
    }

    /// Step 7: each envelope's timer counts down (a period of 0 as 8); at 0 it reloads and,
    /// with a period other than 0, the volume steps in NRx2's direction, or, at 0 going down
    /// or 15 going up, the envelope stops until the next trigger.
    fn clock_envelopes(&mut self) {
        for i in [0, 1, 3] {
            let nrx2 = self.regs[reg(i, 2)];
            let c = &mut self.ch[i];
            c.env_timer = c.env_timer.saturating_sub(1);
            if c.env_timer != 0 {
                continue;
            }
            c.env_timer = env_period(nrx2);
            if nrx2 & 7 == 0 || c.env_stopped {
                continue;
            }
            let up = nrx2 & 0x08 != 0;
            match (up, c.volume) {
                (true, 15) | (false, 0) => c.env_stopped = true,
                (true, _) => c.volume += 1,
                (false, _) => c.volume -= 1,
            }
        }
    }

    /// One frame sequencer step (512 Hz, on a falling edge of DIV bit 4): lengths on even
    /// steps, the sweep on steps 2 and 6, envelopes on step 7. `now` is the step's time.
    pub fn frame_sequencer(&mut self, now: u64) {
        if !self.powered() {
            return;
        }
        self.catch_up(now);
        let step = self.fs_step;
        if step == FS_DEAD_STEP {
            self.fs_step = 0;
            return;
        }
        self.fs_step = (step + 1) & 7;
        if step & 1 == 0 {
            self.clock_lengths();
        }
        if step == 2 || step == 6 {
            self.clock_sweep(now);
        }
        if step == 7 {
            self.clock_envelopes();
        }
    }
}

impl Apu {
    /// 0xFF10-0xFF3F for a save state that stores registers as a game would write them (BESS,
    /// [`crate::bess`]): the values last written, except NR52 as it reads (power and the
    /// channels playing), NRx4 without the trigger bit, and the length bits of NR11, NR21,
    /// NR31 and NR41 holding the length counters as they are now (writing them back sets the
    /// counters, also while the APU is off); then wave RAM as stored.
    pub(crate) fn bess_registers(&self) -> [u8; 0x30] {
        let mut out = [0; 0x30];
        out[..0x20].copy_from_slice(&self.regs);
        out[0x16] = self.read(0xFF26, 0);
        for (c, chan) in self.ch.iter().enumerate() {
            out[reg(c, 4)] &= 0x7F;
            let i = reg(c, 1);
            out[i] = if c == 2 {
                (256 - chan.length.min(256)) as u8
            } else {
                (out[i] & 0xC0) | ((64 - chan.length.min(64)) as u8 & 0x3F)
            };
        }
        out[0x20..].copy_from_slice(&self.wave_ram);
        out
    }

    /// Set 0xFF10-0xFF3F from [`Apu::bess_registers`]' layout without triggering anything:
    /// power from NR52 bit 7, each channel playing as NR52's low bits say (if its DAC is on),
    /// the length counters from NRx1, and the rest as right after a trigger (envelope at its
    /// initial volume, sweep reloaded, waveforms at their start, frame sequencer at step 0).
    /// The output ring and the output switch are kept.
    pub(crate) fn restore_registers(&mut self, r: &[u8; 0x30], now: u64) {
        let off = self.synth.off;
        let clock_phase = self.clock_phase;
        let out = std::mem::take(&mut self.out);
        *self = Apu::power_on();
        self.out = out;
        self.synth.off = off;
        self.clock_phase = clock_phase;
        self.wave_ram.copy_from_slice(&r[0x20..]);
        if r[0x16] & 0x80 != 0 {
            self.regs.copy_from_slice(&r[..0x20]);
            self.regs[0x16] = 0x80;
            for c in 0..4 {
                self.regs[reg(c, 4)] &= 0x7F;
                let dac = if c == 2 {
                    self.regs[0x0A] & 0x80 != 0
                } else {
                    self.regs[reg(c, 2)] & 0xF8 != 0
                };
                let nrx2 = self.regs[reg(c, 2)];
                let chan = &mut self.ch[c];
                chan.dac = dac;
                chan.enabled = dac && r[0x16] & (1 << c) != 0;
                chan.length_enabled = self.regs[reg(c, 4)] & 0x40 != 0;
                if c != 2 {
                    chan.volume = nrx2 >> 4;
                    chan.env_timer = env_period(nrx2);
                }
            }
            let period = (self.regs[0] >> 4) & 7;
            self.sweep = Sweep {
                timer: if period == 0 { 8 } else { period },
                shadow: self.frequency(0),
                enabled: period != 0 || self.regs[0] & 7 != 0,
                negate_used: false,
                calc_at: u64::MAX,
            };
        }
        for (c, chan) in self.ch.iter_mut().enumerate() {
            chan.length = if c == 2 {
                256 - u16::from(r[reg(c, 1)])
            } else {
                64 - u16::from(r[reg(c, 1)] & 0x3F)
            };
        }
        self.start_clock(now);
        if self.ch[2].enabled {
            self.wave = WavePos {
                pos: 0,
                next: now + self.wave_period() + WAVE_TRIGGER_DELAY,
                last: 0,
            };
        }
    }
}

impl Apu {
    /// Append the APU's part of the state image.
    pub(crate) fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        w.bytes(&self.regs);
        w.bytes(&self.wave_ram);
        for c in &self.ch {
            w.bool(c.enabled);
            w.bool(c.dac);
            w.u16(c.length);
            w.bool(c.length_enabled);
            w.u8(c.volume);
            w.u8(c.env_timer);
            w.bool(c.env_stopped);
        }
        w.u8(self.sweep.timer);
        w.u16(self.sweep.shadow);
        w.bool(self.sweep.enabled);
        w.bool(self.sweep.negate_used);
        w.u64(self.sweep.calc_at);
        w.u8(self.fs_step);
        w.u8(self.clock_phase);
        w.bool(self.fs_late);
        w.u8(self.wave.pos);
        w.u64(self.wave.next);
        w.u64(self.wave.last);
        self.synth.save_state(w);
    }

    /// Read the APU's part of the state image.
    /// `now` is the machine's clock in the same image.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
        now: u64,
    ) -> Result<(), crate::state::StateError> {
        r.bytes(&mut self.regs)?;
        r.bytes(&mut self.wave_ram)?;
        for c in &mut self.ch {
            c.enabled = r.bool()?;
            c.dac = r.bool()?;
            c.length = r.u16()?;
            if c.length > 256 {
                return Err(crate::state::StateError::Invalid("length counter"));
            }
            c.length_enabled = r.bool()?;
            c.volume = r.below(16, "envelope volume")?;
            c.env_timer = r.u8()?;
            c.env_stopped = r.bool()?;
        }
        self.sweep.timer = r.u8()?;
        self.sweep.shadow = r.u16()?;
        self.sweep.enabled = r.bool()?;
        self.sweep.negate_used = r.bool()?;
        self.sweep.calc_at = r.u64()?;
        self.fs_step = r.below(FS_DEAD_STEP + 1, "frame sequencer step")?;
        self.clock_phase = r.below(4, "APU clock phase")?;
        self.fs_late = r.bool()?;
        self.wave.pos = r.below(32, "wave position")?;
        self.wave.next = r.u64()?;
        self.wave.last = r.u64()?;
        self.synth.load_state(r)?;
        self.settle_generators(now)
    }

    /// After a load: the generators' clock may not be ahead of the machine's; one far behind
    /// (an image saved with generation off) restarts at `now`; edges before the generators'
    /// clock (possible only in a doctored image) move up to it, so a catch-up never has to
    /// walk through a long past edge by edge.
    fn settle_generators(&mut self, now: u64) -> Result<(), crate::state::StateError> {
        if self.synth.t > now {
            return Err(crate::state::StateError::Invalid(
                "audio clock ahead of the machine",
            ));
        }
        if now - self.synth.t > 4 * 70_224 {
            self.synth.t = now;
            self.synth.window_end = (now / SAMPLE_PERIOD + 1) * SAMPLE_PERIOD;
            self.synth.acc_l = 0;
            self.synth.acc_r = 0;
        }
        let t = self.synth.t;
        for c in 0..2 {
            if self.ch[c].enabled {
                self.synth.square_next[c] = self.synth.square_next[c].max(t);
                if self.synth.latch_at[c] != NO_LATCH {
                    self.synth.latch_at[c] = self.synth.latch_at[c].max(t);
                }
            }
        }
        if self.ch[3].enabled {
            self.synth.noise_next = self.synth.noise_next.max(t);
        }
        if self.ch[2].enabled && self.wave.next < t {
            self.wave = self.wave_at(t);
        }
        Ok(())
    }
}
