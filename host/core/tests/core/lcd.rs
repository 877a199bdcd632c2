//! LCD switching seen from the frame: the first frame after the LCD is switched on stays blank.

use gb_core::{Cartridge, Gb, asm};

#[test]
fn first_frame_after_lcd_on_is_blank_then_the_picture_shows() {
    // At VBlank: LCD off, tile 0 all colour 3, BGP identity, LCD on with the tile map at 0x9C00
    // (all tile 0; the one at 0x9800 holds the boot logo); then wait forever.
    let rom = asm::rom(
        r#"
        .wait:
            ldh a, [$44]
            cp 144
            jr nz, .wait
            xor a
            ldh [$40], a
            ld hl, $8000
            ld a, $FF
            ld b, 16
        .fill:
            ld [hl+], a
            dec b
            jr nz, .fill
            ld a, $E4
            ldh [$47], a
            ld a, $99
            ldh [$40], a
            ld b, b
        .forever:
            jr .forever
        "#,
    )
    .expect("assemble");
    let mut gb = Gb::new(Cartridge::from_rom(rom).expect("cartridge"));
    let mut hit = false;
    for _ in 0..10 {
        if gb.run_frame_or_ld_b_b() {
            hit = true;
            break;
        }
    }
    assert!(hit, "the ROM reached its LD B,B");
    gb.run_frame(); // finishes the frame the LCD was switched on in: not shown
    assert!(
        gb.framebuffer().shades().all(|s| s == 0),
        "first frame after LCD on is blank"
    );
    gb.run_frame();
    assert!(
        gb.framebuffer().shades().all(|s| s == 3),
        "second frame shows the all-black background"
    );
}
