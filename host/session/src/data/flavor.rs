//! [`Flavor`]: which Lua API a script is written for (gbhost's, BizHawk's or VBA-rr's), and
//! the guess from its source. Plain data: the layers themselves are `api`'s.

/// Which API a script is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavor {
    /// gbhost's own API (`docs/lua-api.md`).
    Native,
    /// BizHawk's Lua API (Game Boy cores).
    BizHawk,
    /// VBA-rr's (and FCEUX's) Lua API.
    Vba,
}

impl Flavor {
    /// Parse `native`, `bizhawk` or `vba`.
    pub fn parse(name: &str) -> Option<Flavor> {
        match name.to_ascii_lowercase().as_str() {
            "native" | "gbhost" => Some(Flavor::Native),
            "bizhawk" => Some(Flavor::BizHawk),
            "vba" | "vba-rr" | "fceux" => Some(Flavor::Vba),
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
        let count = |names: &[&str]| names.iter().filter(|n| source.contains(*n)).count();
        let (b, v) = (count(&BIZHAWK), count(&VBA));
        if b == 0 && v == 0 {
            Flavor::Native
        } else if b >= v {
            Flavor::BizHawk
        } else {
            Flavor::Vba
        }
    }
}
