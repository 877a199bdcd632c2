//! `apu.state()` and `apu.channel(n)`: the APU's read-only view ([`gb_core::apu::view::ApuView`]) as
//! named fields, for Lua (`gbhost.apu`, turned into tables by `prelude.lua`) and for the Python
//! package, so both use the same names. A name `part.field` is a field of a sub-table (`envelope`,
//! `pulse`, `sweep`, `wave`, `noise`), present only for the channels that have that part.
//!
//! Reading is not an outside input: the values come from the machine's state alone, change
//! nothing (not even the state image) and are the same on every replay, so nothing is logged.

use gb_core::apu::view::{ApuView, ChannelView};
use lua_rollback::Value;

use super::args::int;
use super::context::Api;
use super::spec::id;

/// One value of the view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Field {
    /// A flag.
    Bool(bool),
    /// A count, register field or period value.
    Int(i64),
    /// A frequency in Hz.
    Float(f64),
}

impl From<Field> for Value {
    fn from(f: Field) -> Value {
        match f {
            Field::Bool(b) => Value::Boolean(b),
            Field::Int(i) => Value::Integer(i),
            Field::Float(x) => Value::Number(x),
        }
    }
}

/// The APU-wide fields (`apu.state()`), in a fixed order.
pub fn state_fields(v: &ApuView) -> Vec<(&'static str, Field)> {
    use Field::{Bool, Int};
    vec![
        ("powered", Bool(v.powered)),
        ("left_volume", Int(v.left_volume.into())),
        ("right_volume", Int(v.right_volume.into())),
        ("vin_left", Bool(v.vin_left)),
        ("vin_right", Bool(v.vin_right)),
        ("panning", Int(v.panning.into())),
        ("frame_sequencer_step", Int(v.frame_sequencer_step.into())),
    ]
}

/// A channel's fields (`apu.channel(n)`), in a fixed order; `part.field` for its parts.
pub fn channel_fields(c: &ChannelView) -> Vec<(&'static str, Field)> {
    use Field::{Bool, Float, Int};
    let mut out = vec![
        ("number", Int(c.number.into())),
        ("playing", Bool(c.playing)),
        ("dac", Bool(c.dac)),
        ("output", Int(c.output.into())),
        ("left", Bool(c.left)),
        ("right", Bool(c.right)),
        ("frequency", Int(c.frequency.into())),
        ("hz", Float(c.hz)),
        ("length", Int(c.length.into())),
        ("length_enabled", Bool(c.length_enabled)),
    ];
    if let Some(e) = c.envelope {
        out.extend([
            ("envelope.volume", Int(e.volume.into())),
            ("envelope.initial_volume", Int(e.initial_volume.into())),
            ("envelope.increase", Bool(e.increase)),
            ("envelope.pace", Int(e.pace.into())),
        ]);
    }
    if let Some(p) = c.pulse {
        out.extend([
            ("pulse.duty", Int(p.duty.into())),
            ("pulse.step", Int(p.step.into())),
        ]);
    }
    if let Some(s) = c.sweep {
        out.extend([
            ("sweep.pace", Int(s.pace.into())),
            ("sweep.negate", Bool(s.negate)),
            ("sweep.shift", Int(s.shift.into())),
            ("sweep.shadow", Int(s.shadow.into())),
            ("sweep.enabled", Bool(s.enabled)),
        ]);
    }
    if let Some(w) = c.wave {
        out.extend([
            ("wave.output_level", Int(w.output_level.into())),
            ("wave.position", Int(w.position.into())),
            ("wave.sample", Int(w.sample.into())),
        ]);
    }
    if let Some(n) = c.noise {
        out.extend([
            ("noise.lfsr", Int(n.lfsr.into())),
            ("noise.short", Bool(n.short)),
            ("noise.clock_shift", Int(n.clock_shift.into())),
            ("noise.clock_divider", Int(n.clock_divider.into())),
        ]);
    }
    out
}

/// The view's fields for `n`: 0 for the APU-wide part, 1-4 for a channel.
pub fn fields(v: &ApuView, n: usize) -> Option<Vec<(&'static str, Field)>> {
    match n {
        0 => Some(state_fields(v)),
        1..=4 => Some(channel_fields(&v.channels[n - 1])),
        _ => None,
    }
}

impl Api<'_> {
    /// The APU view's call. Returns false for an id that is not it.
    pub(super) fn call_apu(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<bool, String> {
        if id != id::APU {
            return Ok(false);
        }
        let n = int(args, 0, "apu.channel")?;
        let view = self.gb.apu_view();
        let fields = usize::try_from(n)
            .ok()
            .and_then(|n| fields(&view, n))
            .ok_or_else(|| format!("apu.channel: channels are 1-4, not {n}"))?;
        for (name, value) in fields {
            ret.push(Value::from(name));
            ret.push(value.into());
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field handed out is declared in the LuaLS classes, under its part's class.
    #[test]
    fn the_luals_classes_declare_every_field() {
        let rom = gb_core::asm::RomBuilder::new()
            .program("loop:\n jr loop\n")
            .build()
            .expect("rom");
        let gb = gb_core::Gb::new(gb_core::Cartridge::from_rom(rom).expect("cart"));
        let v = gb.apu_view();
        for n in 0..=4 {
            for (name, _) in fields(&v, n).expect("fields") {
                let (class, field) = match name.split_once('.') {
                    None if n == 0 => ("ApuState", name),
                    None => ("ApuChannel", name),
                    Some((part, field)) => (part, field),
                };
                let class = match class {
                    "envelope" => "ApuEnvelope",
                    "pulse" => "ApuPulse",
                    "sweep" => "ApuSweep",
                    "wave" => "ApuWave",
                    "noise" => "ApuNoise",
                    c => c,
                };
                let section = super::super::spec::APU_LUALS_CLASSES
                    .split("---@class ")
                    .find(|s| s.starts_with(class))
                    .expect("class");
                assert!(
                    section.contains(&format!("---@field {field} ")),
                    "{class}.{field} is not declared"
                );
            }
        }
    }
}
