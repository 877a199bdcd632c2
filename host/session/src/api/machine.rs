//! The machine's calls: frame and lag counts, registers, the model and ROM, the joypad, bus
//! hooks changed, the `persist` table, and state saves and loads a script asks for (the VMs'
//! part is done by the session when the call returns).

use gb_core::Registers;
use lua_rollback::Value;

use super::args::{int, persist_key, slot_name, text_arg};
use super::context::{Api, Request};
use super::spec::id;
use crate::state::SavedState;

fn register_value(r: &Registers, name: &str) -> Option<i64> {
    let pair = |h: u8, l: u8| i64::from(u16::from_be_bytes([h, l]));
    Some(match name {
        "a" => i64::from(r.a),
        "f" => i64::from(r.f),
        "b" => i64::from(r.b),
        "c" => i64::from(r.c),
        "d" => i64::from(r.d),
        "e" => i64::from(r.e),
        "h" => i64::from(r.h),
        "l" => i64::from(r.l),
        "af" => pair(r.a, r.f),
        "bc" => pair(r.b, r.c),
        "de" => pair(r.d, r.e),
        "hl" => pair(r.h, r.l),
        "sp" => i64::from(r.sp),
        "pc" => i64::from(r.pc),
        _ => return None,
    })
}

fn set_register(r: &mut Registers, name: &str, v: i64) -> bool {
    let (hi, lo) = ((v >> 8) as u8, v as u8);
    match name {
        "a" => r.a = lo,
        "f" => r.f = lo,
        "b" => r.b = lo,
        "c" => r.c = lo,
        "d" => r.d = lo,
        "e" => r.e = lo,
        "h" => r.h = lo,
        "l" => r.l = lo,
        "af" => (r.a, r.f) = (hi, lo),
        "bc" => (r.b, r.c) = (hi, lo),
        "de" => (r.d, r.e) = (hi, lo),
        "hl" => (r.h, r.l) = (hi, lo),
        "sp" => r.sp = v as u16,
        "pc" => r.pc = v as u16,
        _ => return false,
    }
    true
}

impl Api<'_> {
    /// The machine's calls. Returns false for an id that is not one of them.
    pub(super) fn call_machine(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<bool, String> {
        match id {
            id::FRAMECOUNT => ret.push(Value::Integer(self.frame as i64)),
            id::LAGCOUNT => ret.push(Value::Integer(self.gb.lag_frames() as i64)),
            id::MOVIE => match self.view.movie {
                None => ret.extend([
                    Value::String(b"INACTIVE".to_vec()),
                    Value::String(Vec::new()),
                    Value::Integer(0),
                    Value::Integer(0),
                    Value::Boolean(false),
                    Value::Integer(0),
                ]),
                Some(m) => {
                    let mode: &[u8] = match (m.read_only, m.ended) {
                        (true, true) => b"FINISHED",
                        (true, false) => b"PLAY",
                        (false, _) => b"RECORD",
                    };
                    ret.extend([
                        Value::String(mode.to_vec()),
                        Value::String(m.name.clone().into_bytes()),
                        Value::Integer(m.length as i64),
                        Value::Integer(m.rerecords as i64),
                        Value::Boolean(m.read_only),
                        Value::Integer(m.start as i64),
                    ]);
                }
            },
            id::MOVIE_INPUT => {
                let f = int(args, 0, "movie.getinput")?;
                match (u64::try_from(f), self.view.log) {
                    (Ok(f), Some(log)) if f < self.frame => {
                        ret.push(Value::Integer(i64::from(log.buttons_before(f + 1).0)));
                    }
                    _ => ret.push(Value::Nil),
                }
            }
            id::ISLAGGED => ret.push(Value::Boolean(self.gb.lagged())),
            id::GETREGISTER => {
                let name = text_arg(args, 0, "emu.getregister")?.to_ascii_lowercase();
                let v = register_value(&self.gb.regs(), &name)
                    .ok_or_else(|| format!("emu.getregister: no register '{name}'"))?;
                ret.push(Value::Integer(v));
            }
            id::SETREGISTER => {
                self.not_in_console("emu.setregister")?;
                let name = text_arg(args, 0, "emu.setregister")?.to_ascii_lowercase();
                let v = int(args, 1, "emu.setregister")?;
                let mut r = self.gb.regs();
                if !set_register(&mut r, &name, v) {
                    return Err(format!("emu.setregister: no register '{name}'"));
                }
                self.gb.set_registers(r);
            }
            id::MODEL => ret.push(Value::from(self.gb.model().name())),
            id::ROM_TITLE => ret.push(Value::from(self.gb.cartridge().header().title.as_str())),
            id::DISASM => {
                let addr = int(args, 0, "debugger.disasm")?;
                let addr = u16::try_from(addr)
                    .map_err(|_| format!("debugger.disasm: {addr} is not an address 0-0xFFFF"))?;
                let gb = &*self.gb;
                let i = gb_core::asm::decode(|a| gb.peek(a), addr);
                ret.push(Value::from(i.text().as_str()));
                ret.push(Value::Integer(i64::from(i.len)));
            }
            id::ROM_HASH => ret.push(Value::from(format!("{:016x}", self.view.rom_hash).as_str())),
            id::PLAYER => ret.push(Value::Integer(self.view.player as i64 + 1)),
            id::PLAYERS => ret.push(Value::Integer(self.view.players.max(1) as i64)),
            id::JOYPAD_GET => ret.push(Value::Integer(i64::from(self.gb.buttons().0))),
            id::JOYPAD_IMMEDIATE => ret.push(Value::Integer(i64::from(self.view.user_buttons.0))),
            id::WATCH_CHANGED => self.requests.push(Request::Watches),
            id::PERSIST_GET => {
                let k = persist_key(args.first())?;
                ret.push(self.persist.get(&k).cloned().unwrap_or(Value::Nil));
            }
            id::PERSIST_SET => {
                let k = persist_key(args.first())?;
                match args.get(1) {
                    None | Some(Value::Nil) => {
                        self.persist.remove(&k);
                    }
                    Some(Value::Other(t)) => {
                        return Err(format!(
                            "persist holds nil, booleans, numbers and strings, not {t}"
                        ));
                    }
                    Some(v) => {
                        self.persist.insert(k, v.clone());
                    }
                }
            }
            id::SAVE => {
                self.not_in_console("savestate.save")?;
                // The machine is saved now; the scripts' arenas when the call returns (a VM
                // cannot be copied while it runs).
                let name = slot_name(args, "savestate.save")?;
                let mut core = Vec::new();
                self.gb.save_state(&mut core);
                self.states.insert(
                    name.clone(),
                    SavedState {
                        core,
                        scripts: Vec::new(),
                    },
                );
                self.requests.push(Request::Save(name));
            }
            id::LOAD => {
                self.not_in_console("savestate.load")?;
                // The machine is loaded now, so the script sees the loaded memory at once; the
                // other scripts are rolled back when the call returns, the caller never.
                let name = slot_name(args, "savestate.load")?;
                let state = self
                    .states
                    .get(&name)
                    .ok_or_else(|| format!("savestate.load: no state named '{name}'"))?;
                self.gb
                    .load_state(&state.core)
                    .map_err(|e| format!("savestate.load: {e}"))?;
                self.requests.push(Request::Load(name));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Refuse `what` in the console, where it would change the machine outside the log.
    fn not_in_console(&self, what: &str) -> Result<(), String> {
        match self.pokes {
            Some(_) => Err(format!(
                "{what} is not available in the console (it would change the machine outside the event log)"
            )),
            None => Ok(()),
        }
    }
}
