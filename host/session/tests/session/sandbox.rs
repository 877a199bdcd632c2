//! Sandbox escapes fail with a clear error and the emulator keeps running.

use crate::common::{console, session};

#[test]
fn escape_attempts_fail_clearly_and_the_game_goes_on() {
    let attempts = [
        (
            "io.lua",
            "print(io.open('/etc/passwd'))",
            "io.open: this script was not loaded from a folder, so it has no files",
        ),
        (
            "os.lua",
            "os.execute('true')",
            "os.execute is not available",
        ),
        (
            "dump.lua",
            "string.dump(print)",
            "string.dump is not available",
        ),
        (
            "bytecode.lua",
            "print(load('\\27Lua\\84\\0'))",
            "attempt to load a binary chunk",
        ),
        (
            "debug.lua",
            "debug.sethook()",
            "debug.sethook is not available",
        ),
        (
            "loadlib.lua",
            "package.loadlib('libc.so.6', 'system')",
            "package.loadlib is not available",
        ),
        (
            "dofile.lua",
            "dofile('/etc/passwd')",
            "cannot open /etc/passwd: loadfile reads .lua files of the script's own folder only",
        ),
        (
            "require.lua",
            "require('../secret')",
            "module '../secret' not found",
        ),
        (
            "loop.lua",
            "while true do end",
            "instruction budget exceeded",
        ),
        (
            "bomb.lua",
            "local t = {} while true do t[#t + 1] = string.rep('x', 1 << 20) end",
            "not enough memory",
        ),
    ];
    for (name, source, expected) in attempts {
        let mut s = session();
        s.load_script(name, source);
        s.load_script(
            "alive.lua",
            "while true do gui.text(0, 0, 'alive') emu.frameadvance() end",
        );
        for _ in 0..3 {
            s.run_frame();
        }
        let lines = console(&mut s).join("\n");
        assert!(lines.contains(expected), "{name}: {lines}");
        assert_eq!(s.gb().peek(0xC000), 3, "{name}: the game kept running");
        assert_eq!(
            crate::common::texts(&s),
            ["alive"],
            "{name}: the other script kept running"
        );
    }
}
