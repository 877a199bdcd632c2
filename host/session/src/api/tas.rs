//! The `tastudio.*` calls' host side: what scripts read of the TAS editor (an
//! [`EditorInfo`](crate::data::EditorInfo) the app sets) and the changes they ask of it
//! ([`TasRequest`]s, carried out by the app after the frame, never on replays).

use lua_rollback::Value;

use super::args::{int, text_arg, type_name};
use super::context::{Api, ClientRequest, Request, TasRequest};
use super::spec::id;

/// A non-negative integer argument.
fn count(args: &[Value], i: usize, what: &str) -> Result<u64, String> {
    u64::try_from(int(args, i, what)?)
        .map_err(|_| format!("{what}: a frame or count must not be negative"))
}

impl Api<'_> {
    /// The TAS editor calls. Returns false for an id that is not one of them.
    pub(super) fn call_tas(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<bool, String> {
        match id {
            id::TAS => {
                let what = text_arg(args, 0, "gbhost.tas")?;
                let Some(ed) = self.view.editor else {
                    ret.push(if what == "engaged" {
                        Value::Boolean(false)
                    } else {
                        Value::Nil
                    });
                    return Ok(true);
                };
                let frame = || count(args, 1, "tastudio");
                match what.as_str() {
                    "engaged" => ret.push(Value::Boolean(true)),
                    "recording" => ret.push(Value::Boolean(ed.recording)),
                    "start" => ret.push(Value::Integer(ed.start as i64)),
                    "marker" => ret.push(
                        ed.markers
                            .get(&frame()?)
                            .map_or(Value::Nil, |t| Value::String(t.clone().into_bytes())),
                    ),
                    "lag" => {
                        let f = frame()?;
                        let lag = f
                            .checked_sub(ed.start)
                            .and_then(|i| ed.lag.get(usize::try_from(i).ok()?).copied().flatten());
                        ret.push(lag.map_or(Value::Nil, Value::Boolean));
                    }
                    "hasstate" => {
                        let f = frame()?;
                        ret.push(Value::Boolean(
                            f >= ed.held_from && f <= ed.valid_end && f <= self.frame,
                        ));
                    }
                    "selection" | "markers" => {
                        let frames: Vec<u64> = if what == "selection" {
                            ed.selection.to_vec()
                        } else {
                            ed.markers.keys().copied().collect()
                        };
                        let packed = frames.iter().flat_map(|f| f.to_le_bytes()).collect();
                        ret.push(Value::String(packed));
                    }
                    "branches" => ret.push(Value::Integer(ed.branches.len() as i64)),
                    "branch" => {
                        let i = usize::try_from(frame()?).unwrap_or(usize::MAX);
                        match ed.branches.get(i) {
                            Some((text, f)) => {
                                ret.push(Value::String(text.clone().into_bytes()));
                                ret.push(Value::Integer(*f as i64));
                            }
                            None => ret.push(Value::Nil),
                        }
                    }
                    _ => return Err(format!("gbhost.tas: unknown question '{what}'")),
                }
            }
            id::TAS_REQUEST => {
                let what = text_arg(args, 0, "gbhost.tas_request")?;
                let w = "tastudio";
                let req = match what.as_str() {
                    "input" => TasRequest::Input {
                        frame: count(args, 1, w)?,
                        mask: u16::try_from(int(args, 2, w)? & 0xFFFF).unwrap_or(0),
                        on: matches!(args.get(3), Some(Value::Boolean(true))),
                    },
                    "insert" => TasRequest::Insert {
                        frame: count(args, 1, w)?,
                        n: count(args, 2, w)?,
                    },
                    "delete" => TasRequest::Delete {
                        frame: count(args, 1, w)?,
                        n: count(args, 2, w)?,
                    },
                    "clear" => TasRequest::Clear {
                        frame: count(args, 1, w)?,
                        n: count(args, 2, w)?,
                    },
                    "playback" => TasRequest::Playback(count(args, 1, w)?),
                    "recording" => TasRequest::Recording(match args.get(1) {
                        Some(Value::Boolean(b)) => *b,
                        other => {
                            return Err(format!(
                                "tastudio.setrecording: a boolean expected, got {}",
                                type_name(other)
                            ));
                        }
                    }),
                    "marker" => TasRequest::Marker {
                        frame: count(args, 1, w)?,
                        text: text_arg(args, 2, w).unwrap_or_default(),
                    },
                    "removemarker" => TasRequest::RemoveMarker(count(args, 1, w)?),
                    "loadbranch" => TasRequest::LoadBranch(
                        usize::try_from(count(args, 1, w)?).unwrap_or(usize::MAX),
                    ),
                    "branchtext" => TasRequest::BranchText {
                        index: usize::try_from(count(args, 1, w)?).unwrap_or(usize::MAX),
                        text: text_arg(args, 2, w)?,
                    },
                    _ => return Err(format!("gbhost.tas_request: unknown change '{what}'")),
                };
                self.requests.push(Request::Client(ClientRequest::Tas(req)));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
