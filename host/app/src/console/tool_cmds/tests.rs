//! The tools' commands through the console's parser and back (a file of its own: it names
//! `command`, which names `tool_cmds`).

use crate::console::command::{Command, parse};

#[test]
fn tool_commands_parse_and_write_back() {
    for line in [
        "search new 1u",
        "search new hram 2s be any",
        "search lt",
        "search eq 5",
        "search ne @C0A0",
        "search by 3",
        "search changes gt 0",
        "search list 50",
        "search undo",
        "search reset",
        "search show h",
        "search end",
        "cheat add 00a-17b-c49 infinite lives",
        "cheat add 010238CD",
        "cheat off 010238cd",
        "cheat remove 00A17BC49",
        "cheat list",
        "ramwatch add C0A2 1u height",
        "ramwatch add 3:D000 2h be",
        "ramwatch remove 2",
        "ramwatch poke 1 -5",
        "ramwatch import \"my watches/a.wch\"",
    ] {
        let cmd = parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let again = parse(&cmd.to_string()).unwrap();
        assert_eq!(again, cmd, "{line} → {cmd}");
    }
    let name = match parse("cheat add 00a17bc49 infinite lives").unwrap() {
        Command::Cheat(super::CheatCmd::Add { code, name }) => (code, name),
        other => panic!("{other:?}"),
    };
    assert_eq!(name, ("00A-17B-C49".into(), "infinite lives".into()));
}

#[test]
fn bad_tool_commands_say_why() {
    for (line, says) in [
        ("search new 3u", "not a search size"),
        ("search frob", "not a filter"),
        ("search eq five", "not a number"),
        ("cheat add 12345", "not a cheat code"),
        ("cheat add 01G238CD", "not a hex digit"),
        ("cheat on", "usage"),
        ("ramwatch add", "missing address"),
        ("ramwatch remove 0", "a watch number"),
        ("ramwatch poke 1 x", "bad value"),
    ] {
        let e = parse(line).unwrap_err();
        assert!(e.contains(says), "{line}: {e}");
    }
}
