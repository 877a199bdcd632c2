//! The `link …` console command, typed: the link cable and the second Game Boy from the REPL,
//! the console panel and the window's Link menu alike. Parsed from a line's words; written
//! back by `Display` (`parse(&cmd.to_string()) == Ok(cmd)`, as every command is).

use std::fmt;
use std::path::PathBuf;

use crate::console::cmd_words::quote;

/// A `link …` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkCmd {
    /// Whether a second Game Boy is linked, what it runs, the cable.
    Status,
    /// Plug the cable in (`true`) or pull it out, from the next frame (a logged event).
    Cable(bool),
    /// Link a second Game Boy running this ROM file (the running game starts again as a pair,
    /// as `run A.gb --link B.gb` starts it).
    Open(PathBuf),
    /// Link a second Game Boy running the same game as player 1.
    Same,
    /// Back to one Game Boy (the running game starts again alone).
    Off,
}

/// The usage line.
pub const LINK_USAGE: &str = "link [FILE | same | off | plug | unplug]";

/// Parse the words after `link`.
pub fn parse_link(args: &[String]) -> Result<LinkCmd, String> {
    Ok(match args {
        [] => LinkCmd::Status,
        [w] => match w.as_str() {
            "status" => LinkCmd::Status,
            "plug" => LinkCmd::Cable(true),
            "unplug" => LinkCmd::Cable(false),
            "same" => LinkCmd::Same,
            "off" => LinkCmd::Off,
            file => LinkCmd::Open(PathBuf::from(file)),
        },
        _ => return Err(format!("usage: {LINK_USAGE}")),
    })
}

impl fmt::Display for LinkCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkCmd::Status => write!(f, "link"),
            LinkCmd::Cable(true) => write!(f, "link plug"),
            LinkCmd::Cable(false) => write!(f, "link unplug"),
            LinkCmd::Same => write!(f, "link same"),
            LinkCmd::Off => write!(f, "link off"),
            LinkCmd::Open(p) => {
                let p = p.to_string_lossy();
                // A file named like a word of the command is written as a path.
                if matches!(&*p, "status" | "plug" | "unplug" | "same" | "off") {
                    write!(f, "link ./{p}")
                } else {
                    write!(f, "link {}", quote(&p))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn link_words() {
        assert_eq!(parse_link(&[]), Ok(LinkCmd::Status));
        assert_eq!(parse_link(&words("plug")), Ok(LinkCmd::Cable(true)));
        assert_eq!(parse_link(&words("unplug")), Ok(LinkCmd::Cable(false)));
        assert_eq!(parse_link(&words("same")), Ok(LinkCmd::Same));
        assert_eq!(parse_link(&words("off")), Ok(LinkCmd::Off));
        assert_eq!(
            parse_link(&words("blue.gb")),
            Ok(LinkCmd::Open("blue.gb".into()))
        );
        assert!(parse_link(&words("a.gb b.gb")).is_err());
    }
}
