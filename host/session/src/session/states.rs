//! Saved states of a session: in memory (by name; a logged load rolls the scripts back with
//! the core) and as state files (`crate::state::file`): saving one, loading one into the
//! running session (a logged event, like every outside input), and starting a new session
//! from one.

use std::collections::BTreeSet;

use super::hooks::restore_scripts;
use super::{
    ConsoleLine, PowerOn, Roms, ScriptRestore, Session, SessionConfig, SessionError, process_nonce,
};
use crate::codec;
use crate::data::{Event, EventKind, SourceHash};
use crate::events::EventLog;
use crate::script::Script;
use crate::state::SavedState;
use crate::state::file::{
    Arenas, LinkMeta, Meta, SavedScript, ScriptImage, StateFile, StateFileError, Thumbnail,
    script_key,
};
use gb_core::{Model, ModelChoice};

impl Session {
    /// Save the whole state (core and every script) in memory under `name`.
    pub fn save_state(&mut self, name: &str) {
        let state = self.saved_state();
        self.states.named.insert(name.to_owned(), state);
    }

    /// Load a state saved with [`Session::save_state`] (a user request: scripts roll back).
    /// Logged, so a replay loads the same bytes.
    pub fn load_state(&mut self, name: &str) -> Result<(), SessionError> {
        let state = self
            .states
            .named
            .get(name)
            .cloned()
            .ok_or_else(|| SessionError::NoState(name.to_owned()))?;
        self.log_load(state);
        Ok(())
    }

    /// Log the load of `state` (a `LoadState` event naming it by index).
    fn log_load(&mut self, state: SavedState) {
        let index = self.states.loaded.len();
        self.states.loaded.push(state);
        self.log_now(EventKind::LoadState { index });
    }

    fn saved_state(&mut self) -> SavedState {
        SavedState {
            core: self.machine.image(),
            scripts: self.scripts.snapshots(),
        }
    }

    pub(crate) fn apply_saved(&mut self, state: &SavedState, except: Option<u32>) {
        // The image was made by this session: it always loads.
        let _ = self.machine.load_image(&state.core);
        restore_scripts(&mut self.scripts.list, &state.scripts, except);
        self.rebuild_watches();
        // The buttons held now go on being held (each player's), whatever the image held.
        self.apply_buttons();
    }

    /// Each active script's portable image (sealed with the session's key), or why it has
    /// none; nothing without a key.
    fn script_images(&mut self) -> Vec<ScriptImage> {
        let Some(key) = self.config.image_key.clone() else {
            return Vec::new();
        };
        let rom = self.start.rom_hash;
        self.scripts
            .list
            .iter_mut()
            .filter(|s| s.active)
            .map(|s| {
                let (status, since) = s.status_and_since();
                ScriptImage {
                    slot: s.slot,
                    status,
                    since,
                    image: s
                        .vm
                        .export_image(&script_key(&key, rom, s.slot, s.hash))
                        .map_err(|e| e.to_string()),
                    base: None,
                }
            })
            .collect()
    }

    /// The hash of each active script VM's canonical image (`lua_rollback::Vm::image_hash`):
    /// equal across processes exactly when the scripts are in the same state.
    pub fn script_image_hashes(&mut self) -> Vec<(u32, Result<u64, String>)> {
        self.scripts
            .list
            .iter_mut()
            .filter(|s| s.active)
            .map(|s| (s.slot, s.vm.image_hash().map_err(|e| e.to_string())))
            .collect()
    }

    /// The state at the current frame as a state file. `unix_time` is stored as the time it
    /// was saved; `with_arenas` adds the script arenas, which only this session can restore
    /// exactly. With a state key ([`SessionConfig::image_key`]) the file also carries the
    /// scripts' portable images, which any process of the same user restores exactly.
    pub fn state_file(&mut self, unix_time: u64, with_arenas: bool) -> StateFile {
        let log: Vec<_> = self
            .timeline
            .log
            .events()
            .iter()
            .filter(|e| e.frame < self.timeline.frame)
            .cloned()
            .collect();
        let thumbnail = Some(if self.machine.picture().is_color() {
            Thumbnail::Colors(self.machine.picture().pixels().to_vec())
        } else {
            Thumbnail::Shades(self.machine.picture().shades().collect())
        });
        self.state_with(unix_time, with_arenas, log, thumbnail)
    }

    /// The state at the current frame for a movie keyframe: no picture, no arenas, and as its
    /// log only the buttons held (the movie has the rest).
    pub(crate) fn keyframe_state(&mut self) -> StateFile {
        let log = match self.timeline.frame {
            0 => Vec::new(),
            f => vec![Event {
                frame: f - 1,
                cycle: 0,
                kind: EventKind::Joypad(self.timeline.log.buttons_before(f)),
            }],
        };
        self.state_with(0, false, log, None)
    }

    /// The state file of the current frame with `log` as its history: the sources it carries
    /// are those of the running scripts and of the log's script events.
    fn state_with(
        &mut self,
        unix_time: u64,
        with_arenas: bool,
        log: Vec<Event>,
        thumbnail: Option<Thumbnail>,
    ) -> StateFile {
        let core = self.machine.image();
        let scripts: Vec<SavedScript> = self
            .scripts
            .list
            .iter()
            .filter(|s| s.active)
            .map(|s| SavedScript {
                slot: s.slot,
                name: s.name.clone(),
                flavor: s.flavor,
                hash: s.hash,
                persist: s.persist.clone(),
                player: s.player,
            })
            .collect();
        let mut hashes: BTreeSet<SourceHash> = scripts.iter().map(|s| s.hash).collect();
        for e in &log {
            if let EventKind::ScriptLoad { hash, .. } | EventKind::ScriptReload { hash, .. } =
                e.kind
            {
                hashes.insert(hash);
            }
        }
        let sources = hashes
            .into_iter()
            .filter_map(|h| self.scripts.sources.get(&h).map(|b| (h, b.clone())))
            .collect();
        let arenas = with_arenas.then(|| Arenas {
            token: (process_nonce(), self.id),
            slots: self
                .scripts
                .list
                .iter_mut()
                .filter(|s| s.active)
                .map(|s| {
                    let mut key = Vec::new();
                    s.vm.snapshot().encode_keyframe(&mut key);
                    (s.slot, s.vm.arena_address() as u64, key)
                })
                .collect(),
        });
        let images = self.script_images();
        let link = self.start.second.as_ref().map(|second| LinkMeta {
            rom_hash: second.rom_hash,
            rom_title: self
                .machine
                .player(1)
                .map(|gb| gb.cartridge().header().title.clone())
                .unwrap_or_default(),
            model: second.model.name().to_owned(),
        });
        StateFile {
            link,
            meta: Meta {
                rom_hash: self.start.rom_hash,
                rom_title: self.machine.gb().cartridge().header().title.clone(),
                model: self.start.model.name().to_owned(),
                frame: self.timeline.frame,
                unix_time,
                build: concat!("gbhost ", env!("CARGO_PKG_VERSION")).to_owned(),
            },
            core,
            scripts,
            sources,
            log,
            thumbnail,
            arenas,
            images,
        }
    }

    /// Check that `file` can be loaded here: same ROM, a core image the core accepts, every
    /// script's source present. Changes nothing.
    fn check_state_file(&mut self, file: &StateFile) -> Result<(), StateFileError> {
        if file.meta.rom_hash != self.start.rom_hash {
            return Err(StateFileError::ForeignRom {
                title: file.meta.rom_title.clone(),
                theirs: file.meta.rom_hash,
                ours: self.start.rom_hash,
            });
        }
        if file.meta.model != self.start.model.name() {
            return Err(StateFileError::ForeignModel {
                theirs: file.meta.model.clone(),
                ours: self.start.model,
            });
        }
        let players = 1 + usize::from(file.link.is_some());
        if players != self.machine.players() {
            return Err(StateFileError::Players {
                theirs: players,
                ours: self.machine.players(),
            });
        }
        if let (Some(theirs), Some(ours)) = (&file.link, &self.start.second) {
            if theirs.rom_hash != ours.rom_hash {
                return Err(StateFileError::ForeignSecondRom {
                    title: theirs.rom_title.clone(),
                    theirs: theirs.rom_hash,
                    ours: ours.rom_hash,
                });
            }
            if theirs.model != ours.model.name() {
                return Err(StateFileError::ForeignModel {
                    theirs: format!("{} (player 2)", theirs.model),
                    ours: ours.model,
                });
            }
        }
        self.check_core_image(&file.core)?;
        for (i, s) in file.scripts.iter().enumerate() {
            if !file.sources.iter().any(|(h, _)| *h == s.hash) {
                return Err(StateFileError::Missing("script source"));
            }
            if file.scripts[..i].iter().any(|t| t.slot == s.slot) || s.slot == u32::MAX {
                return Err(StateFileError::Section {
                    section: "SCRP".into(),
                    source: codec::DecodeError {
                        what: format!("script slot {} is listed twice or out of range", s.slot),
                        at: 0,
                    },
                });
            }
        }
        Ok(())
    }

    /// Whether the core accepts `core`, without changing the machine (a refused image changes
    /// nothing; an accepted one is replaced by the machine's own at once).
    fn check_core_image(&mut self, core: &[u8]) -> Result<(), StateFileError> {
        Ok(self.machine.check_image(core)?)
    }

    /// Whether `file` carries this session's own arenas for the scripts running here.
    fn own_arenas(&self, file: &StateFile) -> bool {
        let Some(arenas) = &file.arenas else {
            return false;
        };
        arenas.token == (process_nonce(), self.id)
            && arenas.slots.len() == file.scripts.len()
            && arenas.slots.iter().all(|(slot, addr, _)| {
                self.scripts
                    .list
                    .iter()
                    .any(|s| s.slot == *slot && s.active && s.vm.arena_address() as u64 == *addr)
            })
    }

    /// The exact restore of `file`'s scripts, if this session saved it and each of its
    /// scripts is still loaded in the very VM it was saved from.
    fn exact_scripts(&self, file: &StateFile) -> Option<Vec<(u32, lua_rollback::Snapshot)>> {
        if !self.own_arenas(file) {
            return None;
        }
        let arenas = file.arenas.as_ref()?;
        arenas
            .slots
            .iter()
            .map(|(slot, _, key)| Some((*slot, lua_rollback::Snapshot::decode_keyframe(key).ok()?)))
            .collect()
    }

    /// Whether `file`'s portable images can go into the running scripts: every script of the
    /// file must be running here in the same slot, with the same source and status, its VM
    /// where the image was made, and every running script must be in the file. Otherwise why
    /// not. Checks the images' seals, without restoring them.
    fn images_fit(&self, file: &StateFile) -> Result<(), String> {
        let key = self.config.image_key.as_ref().ok_or("no state key")?;
        let running = self.scripts.list.iter().filter(|s| s.active).count();
        if running != file.scripts.len() {
            return Err(format!(
                "the state has {} scripts, {running} are running",
                file.scripts.len()
            ));
        }
        for saved in &file.scripts {
            let image = file_image(file, saved.slot)?;
            let s = self
                .scripts
                .list
                .iter()
                .find(|s| s.slot == saved.slot && s.active)
                .ok_or_else(|| format!("'{}' is not running in slot {}", saved.name, saved.slot))?;
            if s.hash != saved.hash || s.name != saved.name {
                return Err(format!("'{}' runs another version", saved.name));
            }
            if s.player != saved.player {
                return Err(format!("'{}' runs against another player", saved.name));
            }
            if s.status_and_since().0 != image.status {
                return Err(format!("'{}' is not in the saved status", saved.name));
            }
            let img = image.image.as_ref().map_err(Clone::clone)?;
            let key = script_key(key, self.start.rom_hash, saved.slot, saved.hash);
            let info = lua_rollback::verify_image(&key, img).map_err(|e| e.to_string())?;
            if info.address != s.vm.arena_address() {
                return Err(format!("'{}' runs in a VM at another address", saved.name));
            }
        }
        Ok(())
    }

    /// The exact restore of `file`'s scripts from its portable images into the running
    /// scripts (see [`Session::images_fit`]), or why not.
    fn portable_scripts(
        &mut self,
        file: &StateFile,
    ) -> Result<Vec<(u32, lua_rollback::Snapshot)>, String> {
        self.images_fit(file)?;
        let key = self.config.image_key.clone().ok_or("no state key")?;
        let rom = self.start.rom_hash;
        let mut out = Vec::new();
        for saved in &file.scripts {
            let img = file_image(file, saved.slot)?
                .image
                .as_ref()
                .map_err(Clone::clone)?;
            let s = self
                .scripts
                .list
                .iter_mut()
                .find(|s| s.slot == saved.slot && s.active)
                .ok_or("a script is gone")?;
            out.push((
                saved.slot,
                s.vm.image_snapshot(&script_key(&key, rom, saved.slot, saved.hash), img)
                    .map_err(|e| e.to_string())?,
            ));
        }
        Ok(out)
    }

    /// Whether [`Session::load_state_file`] would restore `file`'s scripts exactly here (from
    /// this session's own arenas, or from its images into the same running scripts), without
    /// restoring anything.
    pub fn loads_exactly(&self, file: &StateFile) -> bool {
        self.own_arenas(file) || self.images_fit(file).is_ok()
    }

    /// Load a state file into this session before the next frame, as logged events (a replay
    /// loads the same state). The script VMs are restored exactly from a file this session
    /// saved, or from the file's portable images when the same scripts are running here
    /// (same slots, sources and status; images sealed with this user's key). Otherwise the
    /// running scripts are unloaded and the file's scripts restart with their `persist` data,
    /// then run their `on_load_state` hooks; the result says why. A file that cannot be loaded
    /// (another ROM, a bad core image, a missing source) changes nothing.
    pub fn load_state_file(&mut self, file: &StateFile) -> Result<ScriptRestore, SessionError> {
        self.check_state_file(file)?;
        if let Some(scripts) = self.exact_scripts(file) {
            self.log_load(SavedState {
                core: file.core.clone(),
                scripts,
            });
            return Ok(ScriptRestore::Exact);
        }
        let why = match self.portable_scripts(file) {
            Ok(scripts) => {
                self.log_load(SavedState {
                    core: file.core.clone(),
                    scripts,
                });
                return Ok(ScriptRestore::Exact);
            }
            Err(why) => why,
        };
        for (hash, bundle) in &file.sources {
            self.scripts.sources.insert(*hash, bundle.clone());
        }
        let running: Vec<u32> = self.scripts.current.keys().copied().collect();
        for slot in running {
            self.scripts.current.remove(&slot);
            self.log_now(EventKind::ScriptUnload { slot });
        }
        for s in &file.scripts {
            let slot = self.scripts.take_slot();
            self.scripts.current.insert(slot, s.hash);
            let mut e = codec::Enc::default();
            codec::encode_persist(&mut e, &s.persist);
            self.log_now(EventKind::Persist { slot, data: e.buf });
            if s.player > 0 {
                self.log_now(EventKind::ScriptPlayer {
                    slot,
                    player: s.player,
                });
            }
            self.log_now(EventKind::ScriptLoad {
                slot,
                name: s.name.clone(),
                hash: s.hash,
                flavor: s.flavor,
            });
        }
        self.log_load(SavedState {
            core: file.core.clone(),
            scripts: Vec::new(),
        });
        Ok(ScriptRestore::Restarted(why))
    }

    /// Load a bare core image (e.g. converted from another emulator's state) before the next
    /// frame, as a logged event: the machine changes, the scripts keep running and their
    /// `on_load_state` hooks run. An image the core refuses changes nothing.
    pub fn load_core_image(&mut self, core: Vec<u8>) -> Result<(), SessionError> {
        self.check_core_image(&core)?;
        self.log_load(SavedState {
            core,
            scripts: Vec::new(),
        });
        Ok(())
    }

    /// Load a BESS file (SameBoy's format, from another emulator) before the next frame, as
    /// a logged load of the core image it gives: the scripts keep running and their
    /// `on_load_state` hooks run. A file the core refuses changes nothing.
    pub fn load_bess(&mut self, bytes: &[u8]) -> Result<(), SessionError> {
        let core = self.machine.bess_image(bytes)?;
        self.load_core_image(core)
    }

    /// Script `saved` of `file` restored exactly from its portable image, or why not.
    fn script_from_image(&self, file: &StateFile, saved: &SavedScript) -> Result<Script, String> {
        let key = self.config.image_key.as_ref().ok_or("no state key")?;
        let key = script_key(key, file.meta.rom_hash, saved.slot, saved.hash);
        let image = file_image(file, saved.slot)?;
        let bytes = image.image.as_ref().map_err(Clone::clone)?;
        let mut script =
            Script::from_image(saved.slot, &saved.name, &self.config.scripts, &key, bytes)?;
        script.set_status(image.status.clone(), image.since);
        Ok(script)
    }

    /// A new session that starts from `file`: the core as saved, the file's event log as the
    /// history before it (so a movie or a later state file continues it), the scripts
    /// restored exactly from the file's portable images when they are sealed with this
    /// user's key ([`SessionConfig::image_key`]), otherwise restarted at that frame with their
    /// `persist` data (their `on_load_state` hooks run, and the console says why), and the
    /// saved picture on screen until the first frame runs. A linked pair's file needs both
    /// ROMs ([`Roms::linked`]); a single Game Boy's, one.
    pub fn from_state_file(
        roms: impl Into<Roms>,
        boot_rom: Option<&[u8]>,
        config: SessionConfig,
        file: &StateFile,
    ) -> Result<Session, SessionError> {
        Session::start_from_file(roms.into(), boot_rom, config, file, false)
    }

    /// [`Session::from_state_file`] that restores every script exactly or fails
    /// ([`StateFileError::Inexact`]): for movie keyframes, where a restarted script would
    /// desync the movie.
    pub fn from_state_file_exact(
        roms: impl Into<Roms>,
        config: SessionConfig,
        file: &StateFile,
    ) -> Result<Session, SessionError> {
        Session::start_from_file(roms.into(), None, config, file, true)
    }

    fn start_from_file(
        roms: Roms,
        boot_rom: Option<&[u8]>,
        config: SessionConfig,
        file: &StateFile,
        exact: bool,
    ) -> Result<Session, SessionError> {
        let model_of = |name: &str| {
            Model::from_name(name).ok_or_else(|| StateFileError::UnknownModel(name.to_owned()))
        };
        let power = PowerOn {
            boot_rom: boot_rom.map(<[u8]>::to_vec),
            model: ModelChoice::Fixed(model_of(&file.meta.model)?),
            ..PowerOn::default()
        };
        let players = 1 + usize::from(file.link.is_some());
        let mut s = match (roms.second, &file.link) {
            (Some(second), Some(link)) => {
                let power_b = PowerOn {
                    model: ModelChoice::Fixed(model_of(&link.model)?),
                    ..PowerOn::default()
                };
                Session::power_on_linked((roms.first, power), (second, power_b), config)?
            }
            (None, None) => Session::power_on(roms.first, power, config)?,
            (second, _) => {
                return Err(StateFileError::Players {
                    theirs: players,
                    ours: 1 + usize::from(second.is_some()),
                }
                .into());
            }
        };
        s.check_state_file(file)?;
        s.machine
            .load_image(&file.core)
            .map_err(StateFileError::from)?;
        // The image carries the rule frames were counted by.
        s.start.frame_rule = s.machine.frame_rule();
        s.timeline.frame = file.meta.frame;
        s.timeline.log = EventLog::from_events(file.log.clone());
        s.inputs.user = s.timeline.log.buttons_before(s.timeline.frame);
        s.inputs.second = s.timeline.log.player_buttons_before(s.timeline.frame, 1);
        // The start time scripts count from, as the file's log set it.
        if let Some(unix) = s
            .timeline
            .log
            .events()
            .iter()
            .rev()
            .find_map(|e| match e.kind {
                crate::data::EventKind::Clock { unix } => Some(unix),
                _ => None,
            })
        {
            s.world.clock.start_unix = unix;
        }
        for (hash, bundle) in &file.sources {
            s.scripts.sources.insert(*hash, bundle.clone());
        }
        match &file.thumbnail {
            Some(Thumbnail::Shades(t)) => {
                s.machine.picture_mut().set_color(false);
                for (dst, src) in s.machine.picture_mut().pixels_mut().iter_mut().zip(t) {
                    *dst = u16::from(*src & 3);
                }
            }
            Some(Thumbnail::Colors(t)) => {
                s.machine.picture_mut().set_color(true);
                s.machine
                    .picture_mut()
                    .pixels_mut()
                    .iter_mut()
                    .zip(t)
                    .for_each(|(d, c)| *d = *c);
            }
            None => {}
        }
        let mut restarted = Vec::new();
        for saved in &file.scripts {
            let bundle = s
                .scripts
                .sources
                .get(&saved.hash)
                .cloned()
                .unwrap_or_default();
            match s.script_from_image(file, saved) {
                Ok(mut script) => {
                    script.hash = saved.hash;
                    script.flavor = saved.flavor;
                    script.active = true;
                    script.persist = saved.persist.clone();
                    script.player = saved.player;
                    script.images = bundle.images.iter().cloned().collect();
                    s.scripts.list.push(script);
                    s.scripts.current.insert(saved.slot, saved.hash);
                    s.scripts.reserve(saved.slot);
                    continue;
                }
                Err(why) if exact => {
                    return Err(StateFileError::Inexact(format!("'{}': {why}", saved.name)).into());
                }
                Err(why) => s.output.console.push(ConsoleLine {
                    slot: saved.slot,
                    text: format!(
                        "{}: restarted from its persist data (not restored exactly: {why})",
                        saved.name
                    ),
                }),
            }
            let mut script = match Script::new(saved.slot, &saved.name, &s.config.scripts) {
                Ok(x) => x,
                Err(text) => {
                    s.output.console.push(ConsoleLine {
                        slot: saved.slot,
                        text,
                    });
                    continue;
                }
            };
            script.persist = saved.persist.clone();
            script.player = saved.player;
            script.images = bundle.images.iter().cloned().collect();
            s.scripts.list.push(script);
            let i = s.scripts.list.len() - 1;
            s.with_script(i, |sc, api| {
                sc.start(api, saved.hash, &bundle, saved.flavor)
            });
            s.after_script_call(i);
            s.scripts.current.insert(saved.slot, saved.hash);
            s.scripts.reserve(saved.slot);
            restarted.push(saved.slot);
        }
        s.scripts.list.sort_by_key(|x| x.slot);
        s.restarted_at_start = restarted.len();
        // Only restarted scripts see a load: the exact ones go on as if nothing happened.
        for i in 0..s.scripts.list.len() {
            if restarted.contains(&s.scripts.list[i].slot) {
                s.with_script(i, |sc, api| sc.fire(api, "load_state"));
                s.after_script_call(i);
            }
        }
        // Asking a VM for its bus hooks runs Lua in it; the exact ones must go on from the
        // very bytes of their image, so they are put back after the question.
        let mut exact = Vec::new();
        for (i, script) in s.scripts.list.iter_mut().enumerate() {
            if !restarted.contains(&script.slot) {
                exact.push((i, script.vm.snapshot()));
            }
        }
        s.rebuild_watches();
        s.refresh_all_ui();
        for (i, snap) in &exact {
            // A snapshot of this very VM: restoring it cannot fail.
            let _ = s.scripts.list[*i].vm.restore(snap);
        }
        if !restarted.is_empty() {
            // The core image holds the buttons of its last frame, the scripts' presses
            // included: an exact restore keeps them, a restart has no presses yet.
            s.apply_buttons();
        }
        s.timeline.history.clear();
        s.capture();
        Ok(s)
    }
}

/// The portable image of the script in `slot`, or why the file has none.
fn file_image(file: &StateFile, slot: u32) -> Result<&ScriptImage, String> {
    let image = file
        .images
        .iter()
        .find(|i| i.slot == slot)
        .ok_or_else(|| "the state has no script images".to_owned())?;
    if image.base.is_some() {
        return Err("its image is a delta from another movie keyframe".to_owned());
    }
    Ok(image)
}
