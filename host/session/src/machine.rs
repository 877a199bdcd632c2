//! [`Machine`]: the emulated hardware a session runs, and the one seam through which the rest
//! of the session reaches it: stepping it through a frame, its state image (the history's
//! captures and restores, the state files, the sync test's hash), the outside input the log
//! applies to it (the joypad, pokes, cheats), its watchpoints, and what it shows (the
//! picture, the audio, read-only access to the core).
//!
//! Today a machine is exactly one [`Gb`]. The link cable (two Game Boys in one session) puts a
//! pair here; callers that go through these methods do not change when it does.
//!
//! **What a pair will change.** A pair holds two `Gb`s and the cable between them. Stepping
//! (`Machine::run_until`, `Machine::run_debug`) interleaves the two cores so that neither
//! runs past a cycle at which the other could observe it, and its "cycle" is the pair's
//! common clock. The image (`Machine::save_image`, `Machine::load_image`,
//! [`Machine::image_hash`]) becomes both cores' images (and the cable's device) in one
//! sectioned image, so the history, the sync test and state files keep treating it as one
//! machine. The input methods (`Machine::set_buttons`, `Machine::poke`,
//! `Machine::poke_memory`) gain a player index, as the events that call them will; the
//! views ([`Machine::gb`], [`Machine::picture`]) become one per player (`gb()` stays the first
//! player's). Watchpoints and the core a script is lent (`Machine::gb_mut`) name a player
//! too.

use gb_core::watch::{Access, Hit};
use gb_core::{
    Boot, Buttons, Cartridge, DebugStop, DebugUntil, Domain, Frame, FrameRule, Gb, GbError,
    StateError,
};

use crate::data::fnv1a;
use crate::tools::cheats::Active;

/// The emulated hardware of a session: one Game Boy today (see the module's docs for what a
/// linked pair changes), with the picture of its last completed frame.
pub struct Machine {
    gb: Gb,
    /// The last completed frame.
    picture: Frame,
}

impl std::fmt::Debug for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("model", &self.gb.model())
            .field("cycles", &self.gb.cycles())
            .finish()
    }
}

impl Machine {
    /// A machine powered on with `cart` as `boot` says.
    pub(crate) fn power_on(cart: Cartridge, boot: Boot<'_>) -> Result<Machine, GbError> {
        Ok(Machine {
            gb: Gb::power_on(cart, boot)?,
            picture: Frame::default(),
        })
    }

    /// The Game Boy (read only: a session changes it through logged events). A linked pair's
    /// first player.
    pub fn gb(&self) -> &Gb {
        &self.gb
    }

    /// The Game Boy to lend a script's API or a debug run for one call (scripts are replayed,
    /// so what they change is no outside input).
    pub(crate) fn gb_mut(&mut self) -> &mut Gb {
        &mut self.gb
    }

    /// T-cycles since power-on (a pair: their common clock).
    pub fn cycles(&self) -> u64 {
        self.gb.cycles()
    }

    /// The rule by which frames end (carried by the image).
    pub fn frame_rule(&self) -> FrameRule {
        self.gb.frame_rule()
    }

    /// The picture of the last completed frame (see `Machine::end_frame`).
    pub fn picture(&self) -> &Frame {
        &self.picture
    }

    /// The picture, to put a state file's thumbnail on screen until a frame runs.
    pub(crate) fn picture_mut(&mut self) -> &mut Frame {
        &mut self.picture
    }

    /// Run until the cycle `due` (the next sub-frame event's), or the frame's end when there
    /// is none; watchpoint hits stop it early. Returns whether the frame ended.
    pub(crate) fn run_until(&mut self, due: Option<u64>) -> bool {
        match due {
            Some(c) => self.gb.run_until_cycle(c),
            None => self.gb.run_frame_watched(),
        }
    }

    /// Run as a debugger asks (see `Gb::run_debug`).
    pub(crate) fn run_debug(&mut self, until: DebugUntil) -> DebugStop {
        self.gb.run_debug(until)
    }

    /// The frame just run is complete: its picture becomes [`Machine::picture`].
    pub(crate) fn end_frame(&mut self) {
        self.gb.swap_frame(&mut self.picture);
    }

    /// Write the machine's fixed-layout state image into `out` (replacing its contents).
    pub fn save_image(&self, out: &mut Vec<u8>) {
        self.gb.save_state(out);
    }

    /// The state image as a new vector.
    pub fn image(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.save_image(&mut out);
        out
    }

    /// Load a state image; a refused one changes nothing.
    pub(crate) fn load_image(&mut self, image: &[u8]) -> Result<(), StateError> {
        self.gb.load_state(image)
    }

    /// Whether the machine would load `image`, without changing it.
    pub(crate) fn check_image(&mut self, image: &[u8]) -> Result<(), StateError> {
        let here = self.image();
        self.gb.load_state(image)?;
        // The machine's own image: it always loads.
        let _ = self.gb.load_state(&here);
        Ok(())
    }

    /// FNV-1a of the state image: equal exactly when two machines are in the same state (the
    /// digest of `--trace`, a sync check across processes).
    pub fn image_hash(&self) -> u64 {
        fnv1a(&self.image())
    }

    /// The state image this machine would have after importing a BESS file (the machine
    /// itself is not changed).
    pub(crate) fn bess_image(&self, bytes: &[u8]) -> Result<Vec<u8>, gb_core::bess::BessError> {
        let mut gb = self.gb.clone();
        gb_core::bess::import(&mut gb, bytes)?;
        let mut core = Vec::new();
        gb.save_state(&mut core);
        Ok(core)
    }

    /// Press exactly `buttons` (the user's, with the scripts' presses and releases applied).
    pub(crate) fn set_buttons(&mut self, buttons: Buttons) {
        self.gb.set_buttons(buttons);
    }

    /// Write `value` at `addr` of the bus (a logged poke).
    pub(crate) fn poke(&mut self, addr: u16, value: u8) {
        self.gb.poke(addr, value);
    }

    /// Write `value` at `offset` of a flat memory domain, mapped or not (a logged poke); an
    /// offset outside it, or the read-only ROM, changes nothing.
    pub(crate) fn poke_memory(&mut self, domain: Domain, offset: u32, value: u8) {
        let at = usize::try_from(offset).unwrap_or(usize::MAX);
        if let Some(b) = self.gb.domain_mut(domain).and_then(|m| m.get_mut(at)) {
            *b = value;
        }
    }

    /// Make the Game Genie codes of `cheats` the ROM's patches.
    pub(crate) fn set_rom_cheats(&mut self, cheats: &Active) {
        self.gb.set_rom_cheats(cheats.rom_cheats());
    }

    /// The GameShark writes of `cheats`, made at every frame's start.
    pub(crate) fn write_ram_cheats(&mut self, cheats: &Active) {
        for c in cheats.decoded() {
            c.write(&mut self.gb);
        }
    }

    /// Replace the core's watchpoints with `watches` (kind, first address, length).
    pub(crate) fn set_watches(&mut self, watches: impl IntoIterator<Item = (Access, u16, u32)>) {
        self.gb.clear_watches();
        for (access, addr, len) in watches {
            self.gb.add_watch(access, addr, len);
        }
    }

    /// Whether a watchpoint was hit since the hits were last taken.
    pub(crate) fn has_hits(&mut self) -> bool {
        self.gb.watch().has_hits()
    }

    /// Move the watchpoint hits into `out` (replacing its contents).
    pub(crate) fn take_hits(&mut self, out: &mut Vec<Hit>) {
        self.gb.watch().take_hits(out);
    }

    /// Let the instruction at `addr` run once past its execute watchpoint.
    pub(crate) fn skip_exec_once(&mut self, addr: u16) {
        self.gb.watch().skip_exec_once(addr);
    }

    /// Move the audio made so far into `out` (see `Gb::drain_audio`); returns how many stereo
    /// samples were written.
    pub(crate) fn drain_audio(&mut self, out: &mut [gb_core::apu::Sample]) -> usize {
        self.gb.drain_audio(out)
    }

    /// Produce the picture or not (see `Gb::set_rendering`).
    pub(crate) fn set_rendering(&mut self, on: bool) {
        self.gb.set_rendering(on);
    }

    /// Generate audio or not (see `Gb::set_audio_enabled`).
    pub(crate) fn set_audio_enabled(&mut self, on: bool) {
        self.gb.set_audio_enabled(on);
    }

    /// Forget the audio waiting.
    pub(crate) fn discard_audio(&mut self) {
        self.gb.discard_audio();
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
