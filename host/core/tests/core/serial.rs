//! The serial port with nothing on the cable: a transfer on the external clock never ends
//! (Pan Docs "Serial Data Transfer", "Timeouts"), one on the internal clock shifts in $FF.

use crate::no_render::machine as power_on;
use gb_core::{Gb, Model, ModelChoice, asm};

/// Start a transfer with SC = `sc` (SB = $55, the serial interrupt enabled, IME off), then
/// spin.
fn machine(sc: u8, model: Model) -> Gb {
    let rom = asm::rom(&format!(
        r#"
            xor a
            ldh [$0F], a
            ld a, $08
            ldh [$FF], a
            ld a, $55
            ldh [$01], a
            ld a, ${sc:02X}
            ldh [$02], a
        .spin:
            jr .spin
        "#
    ))
    .expect("assemble");
    power_on(&rom, ModelChoice::Fixed(model))
}

#[test]
fn an_external_clock_transfer_with_nothing_connected_never_ends() {
    for (model, sc) in [(Model::Dmg, 0x80), (Model::Cgb, 0x80), (Model::Cgb, 0xFC)] {
        let mut gb = machine(sc, model);
        for _ in 0..600 {
            gb.run_frame();
        }
        assert_eq!(
            gb.peek(0xFF0F) & 0x08,
            0,
            "{model} SC {sc:02X}: no serial interrupt"
        );
        assert_ne!(
            gb.peek(0xFF02) & 0x80,
            0,
            "{model}: the transfer is still on"
        );
        assert_eq!(gb.peek(0xFF01), 0x55, "{model}: SB untouched");
    }
}

#[test]
fn an_internal_clock_transfer_with_nothing_connected_shifts_in_ones() {
    for model in [Model::Dmg, Model::Cgb] {
        let mut gb = machine(0x81, model);
        gb.run_frame();
        gb.run_frame();
        assert_ne!(gb.peek(0xFF0F) & 0x08, 0, "{model}: the transfer ended");
        assert_eq!(gb.peek(0xFF02) & 0x80, 0, "{model}: SC bit 7 cleared");
        assert_eq!(gb.peek(0xFF01), 0xFF, "{model}: $FF shifted in");
    }
}
