//! The debugger's commands through the console's parser and back (a file of its own: it
//! names `command`, which names `debug_cmds`).

use crate::console::command::parse;

#[test]
fn debugger_commands_parse_and_write_back() {
    for line in [
        "break 0150",
        "break 3:4000 if a == $10",
        "break Main.loop",
        "break w C0A0",
        "break w C0A0 =03",
        "break rw C000..C0FF if value > 5",
        "break int",
        "break ldbb",
        "watch w C0A0",
        "watch r FF44 if value == 144",
        "delete 2",
        "delete all",
        "disable 1",
        "enable 1",
        "info break",
        "si",
        "si 10",
        "next",
        "finish",
        "run-to 0200",
        "disasm",
        "disasm 20",
        "disasm 4000 5",
        "bt",
        "trace t.log",
        "trace \"my traces/a.log\" 3",
    ] {
        let cmd = parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(
            matches!(cmd, crate::console::command::Command::Debug(_)),
            "{line} is a debugger command, not {cmd:?}"
        );
        assert_eq!(parse(&cmd.to_string()).unwrap(), cmd, "{line} → {cmd}");
    }
}

#[test]
fn bad_debugger_commands_say_why() {
    for (line, says) in [
        ("break", "usage: break"),
        ("break w", "usage: break"),
        ("break 0150 =05", "=VALUE is for r, w and rw"),
        ("break w C000 =XYZ", "bad value"),
        ("break 0150 if", "a condition after 'if'"),
        ("watch C0A0 5", "watch r|w|rw"),
        ("si many", "not a count"),
        ("delete x", "a breakpoint number"),
    ] {
        let e = parse(line).unwrap_err();
        assert!(e.contains(says), "{line}: {e}");
    }
}
