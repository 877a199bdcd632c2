//! `Input Log.txt`: the LogKeys of BizHawk's Game Boy cores, what each control means, and
//! frame lines read and written by the movie's own LogKey.
//!
//! A linked pair's movie (BizHawk's GambatteLink) names each player's buttons with a `P1 ` or
//! `P2 ` prefix and has the console control `Toggle Link Connection` (mnemonic `L`, from the
//! `GBL` overrides of `Bk2MnemonicLookup.cs`) in a group of its own before them; a name
//! without a player prefix is player 1's, as in a one-Game-Boy movie.

use gb_core::Buttons;

use super::data::Bk2Frame;
use super::error::Bk2Error;
use super::limits::{MAX_FRAMES, MAX_LINE_BYTES};
use super::text::{cut, lines};

/// The LogKey of BizHawk's Gambatte core (without the `LogKey:` prefix).
pub const GAMBATTE_LOG_KEY: &str = "#Up|Down|Left|Right|Start|Select|B|A|Power|";
/// The LogKey of BizHawk's GBHawk core.
pub const GBHAWK_LOG_KEY: &str =
    "#P1 Up|P1 Down|P1 Left|P1 Right|P1 Start|P1 Select|P1 B|P1 A|P1 Power|";
/// The LogKey of BizHawk's SameBoy core (no Power button).
pub const SAMEBOY_LOG_KEY: &str = "#P1 Up|P1 Down|P1 Left|P1 Right|P1 A|P1 B|P1 Select|P1 Start|";
/// The LogKey of BizHawk's GambatteLink core with two Game Boys: the console group (the
/// cable's toggle), then each player's nine buttons in `CreateControllerDefinition`'s order
/// (`Emulation.Cores/Consoles/Nintendo/Gameboy/GambatteLink.cs`).
pub const GAMBATTE_LINK_LOG_KEY: &str = concat!(
    "#Toggle Link Connection|",
    "#P1 Up|P1 Down|P1 Left|P1 Right|P1 A|P1 B|P1 Select|P1 Start|P1 Power|",
    "#P2 Up|P2 Down|P2 Left|P2 Right|P2 A|P2 B|P2 Select|P2 Start|P2 Power|"
);

// ---------------------------------------------------------------------------------------------
// Controls: what a LogKey name means.

/// One column of an input-log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Control {
    /// A joypad button of player `player` (0 or 1).
    Button {
        player: u8,
        bit: Buttons,
        mnemonic: u8,
        name: &'static str,
    },
    /// BizHawk's Power button of player `player`.
    Power { player: u8 },
    /// A linked pair's cable toggle (GambatteLink's `Toggle Link Connection`, GBHawkLink's
    /// and DualGambatte's `Toggle Cable`).
    ToggleLink,
    /// A subframe axis: only its whole-frame value is accepted.
    Axis { name: &'static str, full: i64 },
}

impl Control {
    /// The control a LogKey name stands for (a `P1 ` or `P2 ` prefix names the player, as
    /// the mnemonic lookup drops it; no prefix is player 1).
    fn from_name(name: &str) -> Option<Control> {
        let (player, base) = match (name.strip_prefix("P1 "), name.strip_prefix("P2 ")) {
            (Some(base), _) => (0, base),
            (None, Some(base)) => (1, base),
            (None, None) => (0, name),
        };
        if let Some(i) = Buttons::NAMES.iter().position(|&(_, n)| n == base) {
            let (bit, name) = Buttons::NAMES[i];
            return Some(Control::Button {
                player,
                bit,
                mnemonic: Buttons::MNEMONICS[i],
                name,
            });
        }
        match base {
            "Power" => Some(Control::Power { player }),
            "Toggle Link Connection" | "Toggle Cable" if name == base => Some(Control::ToggleLink),
            // Gambatte's subframe axis is not player-prefixed; GBHawk's neither.
            _ if name == "Input Length" => Some(Control::Axis {
                name: "Input Length",
                full: 35112,
            }),
            _ if name == "Input Cycle" => Some(Control::Axis {
                name: "Input Cycle",
                full: 70224,
            }),
            _ => None,
        }
    }

    /// The character this control takes in an empty line (an axis: the example value).
    fn empty_text(self) -> String {
        match self {
            Control::Button { .. } | Control::Power { .. } | Control::ToggleLink => ".".to_string(),
            Control::Axis { full, .. } => format!("{full:>5},"),
        }
    }
}

/// The columns of a LogKey, in order.
#[derive(Clone, Debug)]
struct Layout {
    controls: Vec<Control>,
    /// Where each group after the first starts in `controls` (a line has `|` there).
    group_starts: Vec<usize>,
}

impl Layout {
    /// Parse a LogKey (without `LogKey:`); `line` is its line number, for errors.
    fn parse(key: &str, line: usize) -> Result<Layout, Bk2Error> {
        let mut controls: Vec<Control> = Vec::new();
        let mut group_starts = Vec::new();
        let mut names = Vec::new();
        for group in key.split('#') {
            let group: Vec<&str> = group.split('|').filter(|n| !n.is_empty()).collect();
            if group.is_empty() {
                continue;
            }
            if !names.is_empty() {
                group_starts.push(names.len());
            }
            names.extend(group);
        }
        for name in names {
            let control = Control::from_name(name).ok_or_else(|| Bk2Error::UnknownControl {
                line,
                name: cut(name, 40),
            })?;
            if controls.contains(&control) {
                return Err(Bk2Error::DuplicateControl {
                    line,
                    name: cut(name, 40),
                });
            }
            controls.push(control);
        }
        let layout = Layout {
            controls,
            group_starts,
        };
        for player in 0..layout.players() {
            for (bit, button) in Buttons::NAMES {
                let present = layout.controls.iter().any(
                    |c| matches!(c, Control::Button { player: p, bit: b, .. } if *b == bit && *p == player),
                );
                if !present {
                    return Err(Bk2Error::MissingControl {
                        line,
                        player: player + 1,
                        button,
                    });
                }
            }
        }
        Ok(layout)
    }

    /// How many players' buttons it has: 2 when any control is player 2's, else 1.
    fn players(&self) -> u8 {
        let second = self.controls.iter().any(|c| {
            matches!(
                c,
                Control::Button { player: 1, .. } | Control::Power { player: 1 }
            )
        });
        1 + u8::from(second)
    }

    /// The LogKey of a core named in the header (`None` or empty: Gambatte, BizHawk's default
    /// Game Boy core).
    fn key_for_core(core: Option<&str>) -> Option<&'static str> {
        match core.map(str::trim) {
            None | Some("") | Some("Gambatte") => Some(GAMBATTE_LOG_KEY),
            Some("GBHawk") => Some(GBHAWK_LOG_KEY),
            Some("SameBoy") => Some(SAMEBOY_LOG_KEY),
            Some("GambatteLink" | "DualGambatte") => Some(GAMBATTE_LINK_LOG_KEY),
            Some(_) => None,
        }
    }

    /// A line with nothing pressed.
    fn empty_line(&self) -> String {
        let mut s = String::from("|");
        for (i, c) in self.controls.iter().enumerate() {
            if self.group_starts.contains(&i) {
                s.push('|');
            }
            s.push_str(&c.empty_text());
        }
        s.push('|');
        s
    }

    fn has_power(&self) -> bool {
        self.controls.contains(&Control::Power { player: 0 })
    }

    /// Parse one frame line (it starts with `|`). Like BizHawk, `|` between controls is
    /// skipped (so the `|.........||` of BizHawk 2.10 reads too); unlike BizHawk, a column
    /// must hold `.` or the button's own mnemonic, and the line must end right after the last
    /// control with one or more `|`.
    fn parse_line(&self, text: &str, line: usize) -> Result<Bk2Frame, Bk2Error> {
        if text.len() > MAX_LINE_BYTES {
            return Err(Bk2Error::LineTooLong {
                line,
                len: text.len(),
            });
        }
        let bytes = text.as_bytes();
        let bad_length = || {
            let example = self.empty_line();
            Bk2Error::BadLineLength {
                line,
                text: text.to_string(),
                found: text.chars().count(),
                expected: example.len(),
                example,
            }
        };
        let mut frame = Bk2Frame::default();
        let mut pos = 0;
        for &control in &self.controls {
            while bytes.get(pos) == Some(&b'|') {
                pos += 1;
            }
            let Some(&byte) = bytes.get(pos) else {
                return Err(bad_length());
            };
            match control {
                Control::Button {
                    player,
                    bit,
                    mnemonic,
                    name,
                } => {
                    if byte == mnemonic {
                        let held = if player == 0 {
                            &mut frame.buttons
                        } else {
                            &mut frame.second
                        };
                        *held = *held | bit;
                    } else if byte != b'.' {
                        return Err(bad_char(text, pos, line, mnemonic, name));
                    }
                    pos += 1;
                }
                Control::Power { player } => {
                    if byte == b'P' {
                        if player == 0 {
                            frame.power = true;
                        } else {
                            frame.second_power = true;
                        }
                    } else if byte != b'.' {
                        return Err(bad_char(text, pos, line, b'P', "Power"));
                    }
                    pos += 1;
                }
                Control::ToggleLink => {
                    if byte == b'L' {
                        frame.toggle_link = true;
                    } else if byte != b'.' {
                        return Err(bad_char(text, pos, line, b'L', "Toggle Link Connection"));
                    }
                    pos += 1;
                }
                Control::Axis { name, full } => {
                    let rest = &bytes[pos..];
                    let comma = rest
                        .iter()
                        .take(16)
                        .position(|&b| b == b',')
                        .ok_or(Bk2Error::BadAxis { line, name })?;
                    let value: i64 = std::str::from_utf8(&rest[..comma])
                        .ok()
                        .and_then(|s| s.trim().parse().ok())
                        .ok_or(Bk2Error::BadAxis { line, name })?;
                    if value != full {
                        return Err(Bk2Error::SubframeInput {
                            line,
                            name,
                            value,
                            full,
                        });
                    }
                    pos += comma + 1;
                }
            }
        }
        let tail = &bytes[pos..];
        if tail.is_empty() || tail.iter().any(|&b| b != b'|') {
            return Err(bad_length());
        }
        Ok(frame)
    }

    /// Write one frame line.
    fn write_line(&self, frame: Bk2Frame, out: &mut String) {
        out.push('|');
        for (i, &control) in self.controls.iter().enumerate() {
            if self.group_starts.contains(&i) {
                out.push('|');
            }
            match control {
                Control::Button {
                    player,
                    bit,
                    mnemonic,
                    ..
                } => {
                    let held = if player == 0 {
                        frame.buttons
                    } else {
                        frame.second
                    };
                    out.push(if held.contains(bit) {
                        char::from(mnemonic)
                    } else {
                        '.'
                    });
                }
                Control::Power { player } => {
                    let power = if player == 0 {
                        frame.power
                    } else {
                        frame.second_power
                    };
                    out.push(if power { 'P' } else { '.' });
                }
                Control::ToggleLink => out.push(if frame.toggle_link { 'L' } else { '.' }),
                Control::Axis { .. } => out.push_str(&control.empty_text()),
            }
        }
        out.push('|');
    }
}

/// The error for a wrong character at byte `pos` of `text`.
fn bad_char(text: &str, pos: usize, line: usize, mnemonic: u8, button: &'static str) -> Bk2Error {
    let found = text
        .get(pos..)
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER);
    Bk2Error::BadChar {
        line,
        column: text.get(..pos).map_or(pos, |s| s.chars().count()) + 1,
        found,
        mnemonic: char::from(mnemonic),
        button,
    }
}

/// `Input Log.txt`: the frames, read with the movie's LogKey (or, without one, the LogKey of
/// the header's core).
pub(super) fn parse(text: &str, core: Option<&str>) -> Result<Vec<Bk2Frame>, Bk2Error> {
    let mut layout: Option<Layout> = None;
    let mut frames = Vec::new();
    for (index, line) in lines(text).enumerate() {
        let number = index + 1;
        if line.starts_with('|') {
            if frames.len() == MAX_FRAMES {
                return Err(Bk2Error::TooManyFrames);
            }
            let layout = match &mut layout {
                Some(layout) => layout,
                None => {
                    let key = Layout::key_for_core(core)
                        .ok_or_else(|| Bk2Error::MissingLogKey(cut(core.unwrap_or(""), 40)))?;
                    layout.insert(Layout::parse(key, number)?)
                }
            };
            frames.push(layout.parse_line(line, number)?);
        } else if let Some(key) = line.strip_prefix("LogKey:") {
            if !frames.is_empty() {
                return Err(Bk2Error::MisplacedLogKey {
                    line: number,
                    what: "a LogKey after the first frame",
                });
            }
            if layout.is_some() {
                return Err(Bk2Error::MisplacedLogKey {
                    line: number,
                    what: "a second LogKey",
                });
            }
            // An empty LogKey means "the core's own", as in BizHawk.
            layout = Some(if key.trim().is_empty() {
                let key = Layout::key_for_core(core)
                    .ok_or_else(|| Bk2Error::MissingLogKey(cut(core.unwrap_or(""), 40)))?;
                Layout::parse(key, number)?
            } else {
                Layout::parse(key, number)?
            });
        } else if line.trim().is_empty()
            || line == "[Input]"
            || line == "[/Input]"
            || line.starts_with("Frame ")
        {
            // Section markers; `Frame N` belongs to savestates and means nothing here.
        } else {
            return Err(Bk2Error::UnexpectedLine {
                line: number,
                text: cut(line, 40),
            });
        }
    }
    Ok(frames)
}

/// The text of `Input Log.txt` for `frames`, with the LogKey of `core` (Gambatte when there is
/// none).
pub(super) fn write(frames: &[Bk2Frame], core: Option<&str>) -> Result<String, Bk2Error> {
    let key = Layout::key_for_core(core)
        .ok_or_else(|| Bk2Error::UnsupportedCore(cut(core.unwrap_or(""), 40)))?;
    let layout = Layout::parse(key, 0)?;
    if frames.len() > MAX_FRAMES {
        return Err(Bk2Error::TooManyFrames);
    }
    if !layout.has_power()
        && let Some(frame) = frames.iter().position(|f| f.power)
    {
        return Err(Bk2Error::PowerNotSupported {
            frame,
            core: core.unwrap_or("").to_string(),
        });
    }
    if layout.players() < 2
        && let Some(frame) = frames.iter().position(|f| f.is_linked_input())
    {
        return Err(Bk2Error::LinkNotSupported {
            frame,
            core: core.unwrap_or("").to_string(),
        });
    }
    let mut input = String::with_capacity(64 + frames.len() * (layout.empty_line().len() + 2));
    input.push_str("[Input]\r\nLogKey:");
    input.push_str(key);
    input.push_str("\r\n");
    for &frame in frames {
        layout.write_line(frame, &mut input);
        input.push_str("\r\n");
    }
    input.push_str("[/Input]\r\n");

    Ok(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        Layout::parse(GAMBATTE_LOG_KEY, 1).unwrap()
    }

    #[test]
    fn bk2_gambatte_line_round_trip() {
        let layout = layout();
        for bits in 0..=255u8 {
            for power in [false, true] {
                let frame = Bk2Frame::one(Buttons(bits), power);
                let mut line = String::new();
                layout.write_line(frame, &mut line);
                assert_eq!(line.len(), 11);
                assert_eq!(layout.parse_line(&line, 1).unwrap(), frame);
            }
        }
    }

    #[test]
    fn bk2_mnemonics_follow_the_log_key_order() {
        let mut line = String::new();
        let all = Bk2Frame::one(Buttons(0xff), true);
        layout().write_line(all, &mut line);
        assert_eq!(line, "|UDLRSsBAP|");
        let sameboy = Layout::parse(SAMEBOY_LOG_KEY, 1).unwrap();
        line.clear();
        sameboy.write_line(Bk2Frame::one(Buttons(0xff), false), &mut line);
        assert_eq!(line, "|UDLRABsS|");
    }

    #[test]
    fn bk2_extra_pipes_are_skipped() {
        let layout = layout();
        let a = layout.parse_line("|.......A.||", 1).unwrap();
        assert_eq!(a.buttons, Buttons::A);
        assert!(layout.parse_line("||U........|", 1).is_ok());
        assert!(matches!(
            layout.parse_line("|.........", 1),
            Err(Bk2Error::BadLineLength { .. })
        ));
        assert!(matches!(
            layout.parse_line("|..........|", 1),
            Err(Bk2Error::BadLineLength { .. })
        ));
    }

    #[test]
    fn bk2_bad_char_names_its_column() {
        let err = layout().parse_line("|U.x......|", 7).unwrap_err();
        match err {
            Bk2Error::BadChar {
                line,
                column,
                found,
                mnemonic,
                button,
            } => {
                assert_eq!(
                    (line, column, found, mnemonic, button),
                    (7, 4, 'x', 'L', "Left")
                );
            }
            other => panic!("{other}"),
        }
    }
}
