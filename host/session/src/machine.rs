//! [`Machine`]: the emulated hardware a session runs, and the one seam through which the rest
//! of the session reaches it: stepping it through a frame, its state image (the history's
//! captures and restores, the state files, the sync test's hash), the outside input the log
//! applies to it (the joypad, pokes, cheats, the cable), its watchpoints, and what it shows
//! (the picture, the audio, read-only access to the core).
//!
//! A machine is one [`Gb`], or two Game Boys on a link cable ([`Pair`]): callers go through
//! these methods and do not care which. For a pair, the first player is "the" Game Boy
//! ([`Machine::gb`], the picture, the audio, pokes, cheats, watchpoints and the scripts'
//! core); the second player's joypad and picture are named by a player index
//! (`Machine::set_player_buttons`, [`Machine::player_picture`]). Stepping
//! (`Machine::run_until`) runs the pair to the first player's cycle, the pair's common
//! clock; the image is the pair's ([`Pair::save_state`]: both machines and the cable), so
//! the history, the sync test and the image hash cover both. Not yet for a pair: the
//! debugger's stops (a pair runs whole frames), BESS import, a script or watchpoint on the
//! second player.

use gb_core::link::Pair;
use gb_core::watch::{Access, Hit};
use gb_core::{
    Boot, Buttons, Cartridge, DebugStop, DebugUntil, Domain, Frame, FrameRule, Gb, GbError,
    StateError,
};

use crate::data::fnv1a;
use crate::tools::cheats::Active;

/// What the machine is made of (not the core's `bus::Hardware`: whole consoles).
enum Consoles {
    /// One Game Boy.
    One(Box<Gb>),
    /// Two on a link cable.
    Linked(Box<Pair>),
}

/// The emulated hardware of a session: one Game Boy or a linked pair (see the module's
/// docs), with the picture of the first player's last completed frame.
pub struct Machine {
    hw: Consoles,
    /// The last completed frame (one Game Boy; a pair keeps its players' own).
    picture: Frame,
}

impl std::fmt::Debug for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("model", &self.gb().model())
            .field("players", &self.players())
            .field("cycles", &self.cycles())
            .finish()
    }
}

impl Machine {
    /// A machine powered on with `cart` as `boot` says.
    pub(crate) fn power_on(cart: Cartridge, boot: Boot<'_>) -> Result<Machine, GbError> {
        Ok(Machine {
            hw: Consoles::One(Box::new(Gb::power_on(cart, boot)?)),
            picture: Frame::default(),
        })
    }

    /// Two machines on a plugged-in link cable: the first player's `cart` and `boot`, the
    /// second's. The second player's audio is not generated (one speaker: the first's).
    pub(crate) fn power_on_linked(
        first: (Cartridge, Boot<'_>),
        second: (Cartridge, Boot<'_>),
    ) -> Result<Machine, GbError> {
        let a = Gb::power_on(first.0, first.1)?;
        let mut b = Gb::power_on(second.0, second.1)?;
        b.set_audio_enabled(false);
        Ok(Machine {
            hw: Consoles::Linked(Box::new(Pair::new(a, b))),
            picture: Frame::default(),
        })
    }

    /// The most Game Boys a machine runs (a linked pair): a player index is below it.
    pub const MAX_PLAYERS: usize = 2;

    /// How many Game Boys: 1, or 2 for a linked pair.
    pub fn players(&self) -> usize {
        match &self.hw {
            Consoles::One(_) => 1,
            Consoles::Linked(_) => 2,
        }
    }

    /// The linked pair, if this machine is one.
    pub fn pair(&self) -> Option<&Pair> {
        match &self.hw {
            Consoles::Linked(p) => Some(p),
            Consoles::One(_) => None,
        }
    }

    /// The Game Boy (read only: a session changes it through logged events). A linked pair's
    /// first player.
    pub fn gb(&self) -> &Gb {
        match &self.hw {
            Consoles::One(gb) => gb,
            Consoles::Linked(p) => p.gb(0),
        }
    }

    /// Whether the last frame was a lag frame: no player's Game Boy read its joypad (a pair
    /// lags only when both do, as BizHawk's linked core counts it).
    pub fn lagged(&self) -> bool {
        (0..self.players()).all(|p| self.player(p).is_none_or(Gb::lagged))
    }

    /// Player `p`'s Game Boy (0: the first), if there is one.
    pub fn player(&self, p: usize) -> Option<&Gb> {
        match &self.hw {
            Consoles::One(gb) => (p == 0).then_some(&**gb),
            Consoles::Linked(pair) => (p < 2).then(|| pair.gb(p)),
        }
    }

    /// The Game Boy to lend a script's API or a debug run for one call (scripts are replayed,
    /// so what they change is no outside input). A pair's first player.
    pub(crate) fn gb_mut(&mut self) -> &mut Gb {
        match &mut self.hw {
            Consoles::One(gb) => gb,
            Consoles::Linked(p) => p.gb_mut(0),
        }
    }

    /// Player `p`'s Game Boy (below [`Machine::MAX_PLAYERS`]; a single Game Boy's for any
    /// player) to lend a script's API for one call (see [`Machine::gb_mut`]), and a linked
    /// pair's other player's, which the call reaches too (BizHawk's `P1 `/`P2 ` domains).
    pub(crate) fn player_and_other_mut(&mut self, p: usize) -> (&mut Gb, Option<&mut Gb>) {
        match &mut self.hw {
            Consoles::One(gb) => (gb, None),
            Consoles::Linked(pair) => {
                let (own, other) = pair.gb_and_other_mut(p.min(1));
                (own, Some(other))
            }
        }
    }

    /// T-cycles since power-on (a pair: the first player's, their common clock).
    pub fn cycles(&self) -> u64 {
        self.gb().cycles()
    }

    /// The rule by which frames end (carried by the image).
    pub fn frame_rule(&self) -> FrameRule {
        self.gb().frame_rule()
    }

    /// The picture of the last completed frame (see `Machine::end_frame`); a pair's first
    /// player's.
    pub fn picture(&self) -> &Frame {
        match &self.hw {
            Consoles::One(_) => &self.picture,
            Consoles::Linked(p) => p.picture(0),
        }
    }

    /// Player `p`'s last completed frame, if there is that player.
    pub fn player_picture(&self, p: usize) -> Option<&Frame> {
        match &self.hw {
            Consoles::One(_) => (p == 0).then_some(&self.picture),
            Consoles::Linked(pair) => (p < 2).then(|| pair.picture(p)),
        }
    }

    /// The picture, to put a state file's thumbnail on screen until a frame runs.
    pub(crate) fn picture_mut(&mut self) -> &mut Frame {
        match &mut self.hw {
            Consoles::One(_) => &mut self.picture,
            Consoles::Linked(p) => p.picture_mut(0),
        }
    }

    /// Run until the cycle `due` (the next sub-frame event's), or the frame's end when there
    /// is none; watchpoint hits stop it early (one Game Boy). Returns whether the frame
    /// ended.
    pub(crate) fn run_until(&mut self, due: Option<u64>) -> bool {
        match (&mut self.hw, due) {
            (Consoles::One(gb), Some(c)) => gb.run_until_cycle(c),
            (Consoles::One(gb), None) => gb.run_frame_watched(),
            (Consoles::Linked(p), due) => p.run_until(due),
        }
    }

    /// Run as a debugger asks (see `Gb::run_debug`); a pair runs to its frame's end.
    pub(crate) fn run_debug(&mut self, until: DebugUntil) -> DebugStop {
        match &mut self.hw {
            Consoles::One(gb) => gb.run_debug(until),
            Consoles::Linked(p) => {
                while !p.run_until(None) {}
                DebugStop::FrameEnd
            }
        }
    }

    /// The frame just run is complete: its picture becomes [`Machine::picture`] (a pair
    /// keeps its players' pictures as their frames end).
    pub(crate) fn end_frame(&mut self) {
        if let Consoles::One(gb) = &mut self.hw {
            gb.swap_frame(&mut self.picture);
        }
    }

    /// Write the machine's fixed-layout state image into `out` (replacing its contents).
    pub fn save_image(&self, out: &mut Vec<u8>) {
        match &self.hw {
            Consoles::One(gb) => gb.save_state(out),
            Consoles::Linked(p) => p.save_state(out),
        }
    }

    /// The state image as a new vector.
    pub fn image(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.save_image(&mut out);
        out
    }

    /// Load a state image; a refused one changes nothing. A single Game Boy's image does not
    /// load into a pair, nor a pair's into a single Game Boy.
    pub(crate) fn load_image(&mut self, image: &[u8]) -> Result<(), StateError> {
        match &mut self.hw {
            Consoles::One(gb) => {
                if image.starts_with(&gb_core::link::PAIR_MAGIC) {
                    return Err(StateError::Invalid(
                        "a linked pair's state cannot load into a single Game Boy",
                    ));
                }
                gb.load_state(image)
            }
            Consoles::Linked(p) => p.load_state(image).map_err(|e| match e {
                gb_core::link::PairStateError::NotAPair => {
                    StateError::Invalid("a single Game Boy's state cannot load into a linked pair")
                }
                gb_core::link::PairStateError::Player { error, .. } => error,
                gb_core::link::PairStateError::Cable(error) => error,
            }),
        }
    }

    /// Whether the machine would load `image`, without changing it.
    pub(crate) fn check_image(&mut self, image: &[u8]) -> Result<(), StateError> {
        let here = self.image();
        self.load_image(image)?;
        // The machine's own image: it always loads.
        let _ = self.load_image(&here);
        Ok(())
    }

    /// FNV-1a of the state image: equal exactly when two machines are in the same state (the
    /// digest of `--trace`, a sync check across processes).
    pub fn image_hash(&self) -> u64 {
        fnv1a(&self.image())
    }

    /// The state image this machine would have after importing a BESS file (the machine
    /// itself is not changed); not for a pair.
    pub(crate) fn bess_image(&self, bytes: &[u8]) -> Result<Vec<u8>, gb_core::bess::BessError> {
        let Consoles::One(gb) = &self.hw else {
            return Err(gb_core::bess::BessError::Damaged(
                "a BESS state holds one Game Boy: it cannot load into a linked pair".into(),
            ));
        };
        let mut gb = gb.clone();
        gb_core::bess::import(&mut gb, bytes)?;
        let mut core = Vec::new();
        gb.save_state(&mut core);
        Ok(core)
    }

    /// Press exactly `buttons` on the first player's joypad (the user's, with the scripts'
    /// presses and releases applied).
    pub(crate) fn set_buttons(&mut self, buttons: Buttons) {
        self.gb_mut().set_buttons(buttons);
    }

    /// Press exactly `buttons` on player `p`'s joypad (nothing if there is no such player).
    pub(crate) fn set_player_buttons(&mut self, p: usize, buttons: Buttons) {
        match &mut self.hw {
            Consoles::One(gb) if p == 0 => gb.set_buttons(buttons),
            Consoles::Linked(pair) if p < 2 => pair.gb_mut(p).set_buttons(buttons),
            _ => {}
        }
    }

    /// Plug the link cable in or pull it out (nothing for a single Game Boy).
    pub(crate) fn set_cable(&mut self, plugged: bool) {
        if let Consoles::Linked(p) = &mut self.hw {
            p.set_plugged(plugged);
        }
    }

    /// Write `value` at `addr` of the bus (a logged poke).
    pub(crate) fn poke(&mut self, addr: u16, value: u8) {
        self.gb_mut().poke(addr, value);
    }

    /// Write `value` at `offset` of a flat memory domain, mapped or not (a logged poke); an
    /// offset outside it, or the read-only ROM, changes nothing.
    pub(crate) fn poke_memory(&mut self, domain: Domain, offset: u32, value: u8) {
        let at = usize::try_from(offset).unwrap_or(usize::MAX);
        if let Some(b) = self.gb_mut().domain_mut(domain).and_then(|m| m.get_mut(at)) {
            *b = value;
        }
    }

    /// Make the Game Genie codes of `cheats` the ROM's patches.
    pub(crate) fn set_rom_cheats(&mut self, cheats: &Active) {
        self.gb_mut().set_rom_cheats(cheats.rom_cheats());
    }

    /// The GameShark writes of `cheats`, made at every frame's start.
    pub(crate) fn write_ram_cheats(&mut self, cheats: &Active) {
        for c in cheats.decoded() {
            c.write(self.gb_mut());
        }
    }

    /// Replace the core's watchpoints with `watches` (kind, first address, length).
    pub(crate) fn set_watches(&mut self, watches: impl IntoIterator<Item = (Access, u16, u32)>) {
        let gb = self.gb_mut();
        gb.clear_watches();
        for (access, addr, len) in watches {
            gb.add_watch(access, addr, len);
        }
    }

    /// Whether a watchpoint was hit since the hits were last taken.
    pub(crate) fn has_hits(&mut self) -> bool {
        self.gb_mut().watch().has_hits()
    }

    /// Move the watchpoint hits into `out` (replacing its contents).
    pub(crate) fn take_hits(&mut self, out: &mut Vec<Hit>) {
        self.gb_mut().watch().take_hits(out);
    }

    /// Let the instruction at `addr` run once past its execute watchpoint.
    pub(crate) fn skip_exec_once(&mut self, addr: u16) {
        self.gb_mut().watch().skip_exec_once(addr);
    }

    /// Move the audio made so far into `out` (see `Gb::drain_audio`); returns how many stereo
    /// samples were written.
    pub(crate) fn drain_audio(&mut self, out: &mut [gb_core::apu::Sample]) -> usize {
        self.gb_mut().drain_audio(out)
    }

    /// Produce the pictures or not (see `Gb::set_rendering`).
    pub(crate) fn set_rendering(&mut self, on: bool) {
        match &mut self.hw {
            Consoles::One(gb) => gb.set_rendering(on),
            Consoles::Linked(p) => {
                p.gb_mut(0).set_rendering(on);
                p.gb_mut(1).set_rendering(on);
            }
        }
    }

    /// Generate audio or not (see `Gb::set_audio_enabled`): the first player's.
    pub(crate) fn set_audio_enabled(&mut self, on: bool) {
        self.gb_mut().set_audio_enabled(on);
    }

    /// Forget the audio waiting.
    pub(crate) fn discard_audio(&mut self) {
        self.gb_mut().discard_audio();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A machine counting frames in work RAM ($C000, in the VBlank handler).
    fn machine() -> Machine {
        let rom = gb_core::asm::rom(
            "xor a\n ld [$C000], a\n ld a, $01\n ldh [$FF], a\n ei\n main:\n halt\n nop\n \
             jr main\n org $40\n \
             push af\n ld a, [$C000]\n inc a\n ld [$C000], a\n pop af\n reti\n",
        )
        .expect("assemble");
        Machine::power_on(Cartridge::from_rom(rom).expect("cart"), Boot::default()).expect("on")
    }

    fn frame(m: &mut Machine) {
        while !m.run_until(None) {}
        m.end_frame();
    }

    #[test]
    fn an_image_brings_the_machine_back_and_its_hash_follows_the_state() {
        let mut m = machine();
        frame(&mut m);
        let (image, hash) = (m.image(), m.image_hash());
        frame(&mut m);
        assert_ne!(m.image_hash(), hash);
        m.load_image(&image).expect("own image");
        assert_eq!(m.image(), image);
        assert_eq!(m.image_hash(), hash);
    }

    #[test]
    fn a_refused_image_changes_nothing() {
        let mut m = machine();
        frame(&mut m);
        let before = m.image();
        assert!(m.check_image(&before[..before.len() / 2]).is_err());
        assert!(m.load_image(b"not an image").is_err());
        assert_eq!(m.image(), before);
        // An image it accepts is checked without being loaded.
        let mut other = machine();
        frame(&mut other);
        frame(&mut other);
        m.check_image(&other.image()).expect("accepted");
        assert_eq!(m.image(), before);
    }

    #[test]
    fn pokes_reach_the_bus_and_the_flat_memories() {
        let mut m = machine();
        m.poke(0xC100, 0x12);
        m.poke_memory(Domain::Wram, 0x101, 0x34);
        // Out of range and the ROM: nothing, and no panic.
        m.poke_memory(Domain::Wram, u32::MAX, 0x56);
        m.poke_memory(Domain::Rom, 0, 0x56);
        assert_eq!(m.gb().peek(0xC100), 0x12);
        assert_eq!(m.gb().peek(0xC101), 0x34);
        assert_ne!(m.gb().domain(Domain::Rom)[0], 0x56);
    }
}
