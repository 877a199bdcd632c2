//! The APIs of the emulators whose scripts gbhost runs (BizHawk, VBA-rr, mGBA), function by
//! function, and what gbhost does with each: the status tables of `docs/lua-api.md` and the
//! LuaLS definitions `scripts/types/{bizhawk,vba,mgba}.d.lua`.
//!
//! The names come from `catalog/*.tsv` (library, function, parameters as the emulator declares
//! them, a short description). The status is never written by hand: [`probe`] loads the
//! compatibility layer in a session and looks every name up, as a script would. A name is
//! *supported* when it gives a working function or value, *not supported* when it gives one
//! of the layer's stubs (`gbhost.unsupported`, which carries the reason shown), and *missing*
//! when the lookup fails, which a test forbids (no death by lookup).

use crate::data::Flavor;
use crate::session::{Session, SessionConfig};

/// One function (or constant) of an emulator's API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its library or object (`memory`, `emu`, `TextBuffer`).
    pub library: &'static str,
    /// Its name in the library.
    pub name: &'static str,
    /// Its parameters as the emulator declares them.
    pub params: &'static str,
    /// What it does.
    pub doc: &'static str,
    /// Why it cannot apply to gbhost (a Game Boy Advance memory, an object only an
    /// unsupported call makes), if so: then it is not looked up.
    pub not_applicable: Option<&'static str>,
}

impl Entry {
    /// The name as scripts write it: `memory.read_u8`, or `emu:read8` for mGBA's objects.
    pub fn path(&self, flavor: Flavor) -> String {
        if self.library == "_G" {
            return self.name.to_owned();
        }
        if self.library == "callbacks-event" {
            return format!("callbacks:add(\"{}\", fn)", self.name);
        }
        let static_tables = ["C", "util", "image", "socket", "system", "emu.memory"];
        let sep = if flavor == Flavor::Mgba && !static_tables.contains(&self.library) {
            ':'
        } else {
            '.'
        };
        format!("{}{sep}{}", self.library, self.name)
    }
}

/// What gbhost does with an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// It works.
    Supported,
    /// Looking it up works; calling it raises "not supported by gbhost" with this reason.
    Unsupported(String),
    /// It cannot apply to gbhost, for this reason (not looked up).
    NotApplicable(String),
    /// Looking it up fails (a bug: scripts that alias it at load would stop).
    Missing,
}

/// The layers with a catalog, with their names in the docs and their definition files.
pub const LAYERS: [(Flavor, &str, &str); 3] = [
    (Flavor::BizHawk, "BizHawk", "bizhawk"),
    (Flavor::Vba, "VBA-rr", "vba"),
    (Flavor::Mgba, "mGBA", "mgba"),
];

/// The catalog of `flavor`'s API (empty for the native one).
pub fn entries(flavor: Flavor) -> Vec<Entry> {
    let text = match flavor {
        Flavor::BizHawk => include_str!("bizhawk.tsv"),
        Flavor::Vba => include_str!("vba.tsv"),
        Flavor::Mgba => include_str!("mgba.tsv"),
        Flavor::Native => "",
    };
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut c = l.split('\t');
            Some(Entry {
                library: c.next()?.trim(),
                name: c.next()?.trim(),
                params: c.next().unwrap_or("").trim(),
                doc: c.next().unwrap_or("").trim(),
                not_applicable: c.next().and_then(|w| w.trim().strip_prefix("n/a: ")),
            })
        })
        .collect()
}

/// The Lua that looks every entry up as a script would and prints `path<TAB>status<TAB>why`.
/// mGBA's objects that scripts get from calls are made the same way (`console:createBuffer`).
fn probe_source(flavor: Flavor, entries: &[Entry]) -> String {
    let mut src = String::from(
        "local OBJECTS = {\n\
           TextBuffer = function() return console:createBuffer('probe') end,\n\
           ['memory domain'] = function() return emu.memory.wram end,\n\
           MemoryDomain = function() return emu.memory.wram end,\n\
           Image = function() return image.new(1, 1) end,\n\
           painter = function() return image.newPainter(image.new(1, 1)) end,\n\
           CanvasLayer = function() return canvas:newLayer(1, 1) end,\n\
           LuaCanvas = function() return gui.createcanvas(8, 8) end,\n\
         }\n\
         local function find(lib, name)\n\
           local obj\n\
           if OBJECTS[lib] then obj = OBJECTS[lib]() else\n\
             obj = _G\n\
             for part in lib:gmatch('[^%.]+') do obj = obj[part] end\n\
           end\n\
           return obj[name]\n\
         end\n\
         local names = {\n",
    );
    for e in entries.iter().filter(|e| e.not_applicable.is_none()) {
        src.push_str(&format!(
            "  {{ {:?}, {:?}, {:?} }},\n",
            e.library,
            e.name,
            e.path(flavor)
        ));
    }
    src.push_str(
        "}\n\
         for _, n in ipairs(names) do\n\
           local ok, v = pcall(find, n[1], n[2])\n\
           local events = gbhost.mgba_events\n\
           if n[1] == 'callbacks-event' then\n\
             ok, v = true, events and events[n[2]]\n\
             if v == false then v = gbhost.unsupported(n[2], 'gbhost has no such moment') end\n\
           end\n\
           if not ok or v == nil then print(n[3] .. '\\tmissing\\t')\n\
           elseif gbhost.stubs[v] then print(n[3] .. '\\tunsupported\\t' .. gbhost.stubs[v])\n\
           else print(n[3] .. '\\tsupported\\t') end\n\
         end\n",
    );
    src
}

/// Every entry of `flavor`'s catalog with its status, found by looking it up in a session
/// running the layer.
pub fn probe(flavor: Flavor) -> Vec<(Entry, Status)> {
    let entries = entries(flavor);
    if entries.is_empty() {
        return Vec::new();
    }
    // The smallest ROM: a jump to itself.
    let mut rom = vec![0u8; 0x8000];
    rom[0x100] = 0x18;
    rom[0x101] = 0xFE;
    let config = SessionConfig {
        ring_bytes: 1 << 20,
        desync_check: false,
        ..SessionConfig::default()
    };
    let Ok(mut s) = Session::new(rom, None, config) else {
        return entries.into_iter().map(|e| (e, Status::Missing)).collect();
    };
    s.load_script_as("probe.lua", &probe_source(flavor, &entries), flavor);
    s.run_frame();
    let lines: Vec<String> = s.take_console().into_iter().map(|l| l.text).collect();
    entries
        .into_iter()
        .map(|e| {
            if let Some(why) = e.not_applicable {
                return (e, Status::NotApplicable(why.to_owned()));
            }
            let path = e.path(flavor);
            let status = lines
                .iter()
                .find_map(|l| {
                    let mut c = l.splitn(3, '\t');
                    (c.next()? == path).then(|| match c.next()? {
                        "supported" => Some(Status::Supported),
                        "unsupported" => Some(Status::Unsupported(c.next().unwrap_or("").into())),
                        _ => None,
                    })?
                })
                .unwrap_or(Status::Missing);
            (e, status)
        })
        .collect()
}

/// The status tables of every layer, for `docs/lua-api.md`.
pub fn markdown() -> String {
    let mut out = String::from(
        "\n## Compatibility: every function of BizHawk, VBA-rr and mGBA\n\n\
         Generated by looking every name of each emulator's API (`host/session/src/catalog/`) \
         up in a session running the layer, as a script would. **✓**: works. **✗**: can be looked \
         up (scripts alias functions at load) and raises \"not supported by gbhost\" with the \
         reason shown when called. **n/a**: cannot apply to a Game Boy host (the reason says \
         why).\n",
    );
    for (flavor, title, _) in LAYERS {
        let probed = probe(flavor);
        let ok = probed
            .iter()
            .filter(|(_, s)| *s == Status::Supported)
            .count();
        out.push_str(&format!(
            "\n### {title} ({ok} of {} supported)\n\n| Function | Parameters | Status |\n|---|---|---|\n",
            probed.len()
        ));
        for (e, status) in &probed {
            let status = match status {
                Status::Supported => "✓".to_owned(),
                Status::Unsupported(why) if why.is_empty() => "✗".to_owned(),
                Status::Unsupported(why) => format!("✗ {why}"),
                Status::NotApplicable(why) => format!("n/a: {why}"),
                Status::Missing => "missing".to_owned(),
            };
            out.push_str(&format!(
                "| `{}` | {} | {} |\n",
                e.path(flavor),
                e.params.replace('|', "\\|"),
                status.replace('|', "\\|")
            ));
        }
    }
    out
}

/// A LuaLS type for a parameter type as an emulator declares it (C#, C or prose).
fn lua_type(ty: &str) -> &'static str {
    let t = ty.trim().trim_end_matches('?').to_ascii_lowercase();
    match t.as_str() {
        "int" | "long" | "uint" | "ulong" | "short" | "ushort" | "byte" | "sbyte" | "integer"
        | "s32" | "u32" | "s64" | "u64" | "address" | "size_t" | "int32_t" | "uint32_t" => {
            "integer"
        }
        "double" | "float" | "number" | "decimal" => "number",
        "string" | "str" => "string",
        "bool" | "boolean" => "boolean",
        "luafunction" | "function" | "fn" | "callback" => "function",
        "color" | "luacolor" | "object" => "integer|string",
        t if t.contains("table") => "table",
        _ => "any",
    }
}

/// `(name, type, optional)` of each parameter of a declaration such as `long addr, string
/// domain = null` (a bare name is of any type).
fn params(decl: &str) -> Vec<(String, &'static str, bool)> {
    let mut out = Vec::new();
    for p in decl.split(',') {
        let (p, optional) = match p.split_once('=') {
            Some((p, _)) => (p, true),
            None => (p, p.contains('?') || p.contains('[')),
        };
        let words: Vec<&str> = p
            .split(|c: char| c.is_whitespace() || c == '[' || c == ']')
            .filter(|w| !w.is_empty())
            .collect();
        let Some(name) = words.last() else { continue };
        let name: String = name
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() || name.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            continue;
        }
        let name = if matches!(
            name.as_str(),
            "end" | "function" | "local" | "repeat" | "in"
        ) {
            format!("{name}_")
        } else {
            name
        };
        let ty = if words.len() > 1 {
            lua_type(&words[..words.len() - 1].join(" "))
        } else {
            "any"
        };
        out.push((name, ty, optional));
    }
    out
}

/// LuaLS definitions of `flavor`'s API as gbhost offers it (supported and stubbed names
/// alike: the stubs say so in their description).
pub fn luals(flavor: Flavor) -> String {
    let title = LAYERS.iter().find(|l| l.0 == flavor).map_or("", |l| l.1);
    let mut out = format!(
        "---@meta\n-- The {title} API as gbhost runs it, for the Lua language server (generated \
         from host/session/src/catalog/; do not edit).\n"
    );
    let probed = probe(flavor);
    let mut tables: Vec<&str> = Vec::new();
    for (e, _) in &probed {
        let top = e.library.split('.').next().unwrap_or(e.library);
        if !tables.contains(&top) && e.library != "callbacks-event" {
            tables.push(top);
        }
    }
    for t in &tables {
        if t.chars().all(|c| c.is_alphanumeric() || c == '_') {
            out.push_str(&format!("\n---@class {title}.{t}\n{t} = {{}}\n"));
        }
    }
    for (e, status) in &probed {
        if e.library == "callbacks-event"
            || !e
                .library
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
            || !e.name.chars().all(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        out.push('\n');
        if !e.doc.is_empty() {
            out.push_str(&format!("--- {}\n", e.doc));
        }
        if let Status::Unsupported(why) = status {
            out.push_str(&format!(
                "--- Not supported by gbhost{}.\n",
                if why.is_empty() {
                    String::new()
                } else {
                    format!(": {why}")
                }
            ));
        }
        if e.library == "C" {
            out.push_str(&format!("{} = {{}}\n", e.path(flavor)));
            continue;
        }
        let ps = params(e.params);
        for (name, ty, optional) in &ps {
            out.push_str(&format!(
                "---@param {name}{} {ty}\n",
                if *optional { "?" } else { "" }
            ));
        }
        let names: Vec<&str> = ps.iter().map(|p| p.0.as_str()).collect();
        out.push_str(&format!(
            "function {}({}) end\n",
            e.path(flavor),
            names.join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_become_luals_parameters() {
        assert_eq!(
            params("long addr, string domain = null"),
            vec![
                ("addr".to_owned(), "integer", false),
                ("domain".to_owned(), "string", true)
            ]
        );
        assert_eq!(
            params("LuaTable points, int? offsetx = null"),
            vec![
                ("points".to_owned(), "table", false),
                ("offsetx".to_owned(), "integer", true)
            ]
        );
        assert_eq!(
            params("address"),
            vec![("address".to_owned(), "any", false)]
        );
        assert!(params("").is_empty());
    }
}
