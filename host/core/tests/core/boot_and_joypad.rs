//! The optional boot ROM overlay, and the joypad register with its interrupt, on ROMs built in
//! code.

use gb_core::{Buttons, Cartridge, Gb, asm};

fn cart(src: &str) -> Cartridge {
    Cartridge::from_rom(asm::rom(src).expect("assemble")).expect("cartridge")
}

/// A 256-byte boot ROM that marks WRAM, reads the cartridge's byte at $0100 through the overlay
/// (so it sees itself), and unmaps itself with a write to $FF50 in its last two bytes, like the
/// real one, falling through to the cartridge at $0100.
fn boot_rom() -> Vec<u8> {
    let mut image = asm::assemble(
        r#"
            ld sp, $FFFE
            ld a, $B0
            ld [$C000], a      ; proof the boot ROM ran
            ld a, [$0000]
            ld [$C001], a      ; what $0000 reads while mapped: our own first byte
            ld a, $01
            ld [$C002], a
            jp $00FE
            org $00FE
            ldh [$50], a       ; unmap: the next fetch, at $0100, comes from the cartridge
        "#,
        0,
    )
    .expect("assemble boot ROM");
    image.resize(0x100, 0x00);
    image
}

#[test]
fn boot_rom_runs_from_zero_and_unmaps_itself() {
    let cart = cart(
        r#"
            ld a, [$0000]      ; the cartridge's own byte at $0000 once unmapped
            ld [$C003], a
            ld b, b
        "#,
    );
    let mut gb = Gb::with_boot_rom(cart, &boot_rom()).expect("boot ROM accepted");
    assert_eq!(gb.regs().pc, 0x0000, "execution starts in the boot ROM");
    assert!(
        gb.run_until_ld_b_b(10_000_000),
        "reached the cartridge's LD B,B"
    );
    assert_eq!(gb.peek(0xC000), 0xB0);
    assert_eq!(
        gb.peek(0xC001),
        0x31,
        "boot ROM sees itself at $0000 (LD SP opcode)"
    );
    assert_eq!(
        gb.peek(0xC003),
        0xFF,
        "cartridge byte at $0000 (unused ROM is $FF)"
    );
}

#[test]
fn boot_rom_of_the_wrong_size_is_an_error() {
    let err = Gb::with_boot_rom(cart("nop"), &[0u8; 100]).expect_err("100 bytes refused");
    assert!(err.to_string().contains("256"), "{err}");
}

#[test]
fn joypad_reads_selected_group_and_raises_its_interrupt() {
    // Select the action buttons, enable only the joypad interrupt, then halt until it comes.
    let mut gb = Gb::new(cart(
        r#"
            ld a, $10          ; P14 high, P15 low: action buttons
            ldh [$00], a
            xor a
            ldh [$0F], a
            ld a, $10
            ldh [$FF], a       ; IE = joypad
            halt
            nop
            ldh a, [$00]
            ld c, a
            ld b, b
        "#,
    ));
    for _ in 0..5 {
        gb.run_frame();
    }
    assert!(gb.is_halted(), "waiting for a button");
    gb.set_buttons(Buttons::A | Buttons::START | Buttons::LEFT);
    assert!(gb.run_until_ld_b_b(100_000));
    let p1 = gb.regs().c;
    // Action group: bit 0 = A, bit 3 = Start pressed (0); B and Select released (1).
    assert_eq!(p1 & 0x0F, 0b0110, "P1 = {p1:#04x}");
    assert_eq!(p1 & 0x30, 0x10, "selection bits read back");
    assert_eq!(gb.peek(0xFF0F) & 0x10, 0x10, "joypad interrupt requested");
}

#[test]
fn pressing_an_unselected_button_raises_nothing() {
    let mut gb = Gb::new(cart(
        "ld a, $20\nldh [$00], a\nxor a\nldh [$0F], a\nld b, b\nloop: jr loop",
    ));
    assert!(gb.run_until_ld_b_b(100_000));
    // Directions selected ($20: P14 low); pressing A changes no line.
    gb.set_buttons(Buttons::A);
    gb.run_frame();
    assert_eq!(gb.peek(0xFF0F) & 0x10, 0, "no joypad interrupt");
    assert_eq!(gb.peek(0xFF00) & 0x0F, 0x0F);
    gb.set_buttons(Buttons::A | Buttons::DOWN);
    gb.run_frame();
    assert_eq!(gb.peek(0xFF0F) & 0x10, 0x10, "Down falls a selected line");
    assert_eq!(gb.peek(0xFF00) & 0x0F, 0b0111);
}
