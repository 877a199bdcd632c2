//! [`Flavor`]: which Lua API a script is written for (gbhost's, BizHawk's, VBA-rr's or
//! mGBA's), and the guess from its source. Plain data: the layers themselves are `api`'s.

/// Which API a script is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavor {
    /// gbhost's own API (`docs/lua-api.md`).
    Native,
    /// BizHawk's Lua API (Game Boy cores).
    BizHawk,
    /// VBA-rr's (and FCEUX's) Lua API.
    Vba,
    /// mGBA's scripting API (0.10: `emu:read8`, `callbacks:add`, `console:log`).
    Mgba,
}

impl Flavor {
    /// Parse `native`, `bizhawk`, `vba` or `mgba`.
    pub fn parse(name: &str) -> Option<Flavor> {
        match name.to_ascii_lowercase().as_str() {
            "native" | "gbhost" => Some(Flavor::Native),
            "bizhawk" => Some(Flavor::BizHawk),
            "vba" | "vba-rr" | "fceux" => Some(Flavor::Vba),
            "mgba" => Some(Flavor::Mgba),
            _ => None,
        }
    }

    /// Guess from the source which API a script is written for: names only one API has.
    pub fn detect(source: &str) -> Flavor {
        const BIZHAWK: [&str; 10] = [
            "mainmemory.",
            "memory.usememorydomain",
            "gui.drawText",
            "gui.drawBox",
            "gui.drawRectangle",
            "gui.pixelText",
            "event.onframe",
            "userdata.",
            "forms.",
            "client.",
        ];
        const VBA: [&str; 8] = [
            "vba.",
            "memory.readbyte",
            "memory.writebyte",
            "memory.readword",
            "savestate.create",
            "gui.register",
            "memory.register",
            "joypad.set(1",
        ];
        const MGBA: [&str; 8] = [
            "callbacks:add",
            "emu:read",
            "emu:write",
            "console:log",
            "emu:setKeys",
            "emu:addKey",
            "C.GB_KEY",
            "emu.memory.",
        ];
        let count = |names: &[&str]| names.iter().filter(|n| source.contains(*n)).count();
        let (b, v, m) = (count(&BIZHAWK), count(&VBA), count(&MGBA));
        if m > 0 && m >= b && m >= v {
            Flavor::Mgba
        } else if b == 0 && v == 0 {
            Flavor::Native
        } else if b >= v {
            Flavor::BizHawk
        } else {
            Flavor::Vba
        }
    }
}
