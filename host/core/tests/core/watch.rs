//! Watchpoints stop the run at the right accesses and change nothing the machine does.

use gb_core::watch::{Access, Hit};
use gb_core::{Cartridge, Gb, asm};

fn rom() -> Vec<u8> {
    asm::rom(
        r#"
            ld a, $01
            ldh [$FF], a
            ei
        main:
            halt
            nop
            jr main
            org $40
        vblank:
            push af
            ld a, [$C000]
            inc a
            ld [$C000], a
            pop af
            reti
        "#,
    )
    .expect("assemble")
}

#[test]
fn watched_runs_stop_at_each_access_and_end_where_unwatched_ones_do() {
    let mut plain = Gb::new(Cartridge::from_rom(rom()).expect("cart"));
    // Work RAM starts with the power-on pattern: the handler counts from whatever is there.
    let start = plain.peek(0xC000);
    let mut watched = plain.clone();
    watched.add_watch(Access::Write, 0xC000, 1);
    watched.add_watch(Access::Read, 0xC000, 1);
    watched.add_watch(Access::Exec, 0x0040, 1);
    let mut hits = Vec::new();
    let mut seen = Vec::new();
    for _ in 0..5 {
        plain.run_frame();
        while !watched.run_frame_watched() {
            watched.watch().take_hits(&mut hits);
            for h in &hits {
                if h.access == Access::Exec {
                    watched.watch().skip_exec_once(h.addr);
                }
            }
            seen.extend(hits.iter().copied());
        }
        watched.watch().take_hits(&mut hits);
        seen.extend(hits.iter().copied());
    }
    let mut a = Vec::new();
    let mut b = Vec::new();
    plain.save_state(&mut a);
    watched.save_state(&mut b);
    assert_eq!(a, b, "stopping at watchpoints changed the run");
    // Each VBlank handler: the instruction at $40 (push af = $F5), the read of $C000, then
    // the write of the new value.
    assert_eq!(seen.len(), 15, "{seen:?}");
    for (k, triple) in seen.chunks(3).enumerate() {
        let n = start.wrapping_add(k as u8);
        assert_eq!(
            triple,
            [
                Hit {
                    access: Access::Exec,
                    addr: 0x40,
                    value: 0xF5,
                    bank: Some(0)
                },
                Hit {
                    access: Access::Read,
                    addr: 0xC000,
                    value: n,
                    bank: None
                },
                Hit {
                    access: Access::Write,
                    addr: 0xC000,
                    value: n.wrapping_add(1),
                    bank: None
                },
            ]
        );
    }
}
