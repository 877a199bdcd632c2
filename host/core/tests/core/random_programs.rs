//! Random programs never panic the core: the test profile keeps overflow checks on, so any
//! unchecked arithmetic or indexing on a path a game can reach shows up here. Each ROM is random
//! bytes behind a valid header, for each mapper, so execution wanders through every opcode,
//! mapper register, I/O register, DMA source and HALT/STOP state.

use gb_core::{Buttons, Cartridge, Gb};

/// xorshift32.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
}

/// A random image of `banks` 16 KiB banks with a header for `cart_type` and `ram_code`.
fn random_rom(rng: &mut Rng, cart_type: u8, banks: usize, ram_code: u8) -> Vec<u8> {
    let mut rom: Vec<u8> = (0..banks * 0x4000).map(|_| rng.next() as u8).collect();
    // Start in code that is random but not immediately a lock-up at 0x100.
    rom[0x100] = 0x00;
    rom[0x101] = 0xC3;
    rom[0x102] = 0x50;
    rom[0x103] = 0x01;
    rom[0x147] = cart_type;
    rom[0x148] = match banks {
        2 => 0,
        4 => 1,
        8 => 2,
        _ => 3,
    };
    rom[0x149] = ram_code;
    let checksum = rom[0x134..0x14D]
        .iter()
        .fold(0u8, |x, &b| x.wrapping_sub(b).wrapping_sub(1));
    rom[0x14D] = checksum;
    rom
}

#[test]
fn random_programs_run_without_panicking() {
    let mut rng = Rng(0x2545_F491);
    let carts: [(u8, usize, u8); 6] = [
        (0x00, 2, 0),  // ROM only
        (0x03, 8, 3),  // MBC1 + RAM + battery
        (0x06, 4, 0),  // MBC2 + battery
        (0x10, 16, 3), // MBC3 + RTC + RAM
        (0x13, 8, 2),  // MBC3 + RAM
        (0x1B, 16, 4), // MBC5 + RAM
    ];
    let mut locked = 0;
    let mut runs = 0;
    for round in 0..40 {
        for &(cart_type, banks, ram) in &carts {
            let rom = random_rom(&mut rng, cart_type, banks, ram);
            let cart = Cartridge::from_rom(rom).expect("valid header");
            let mut gb = Gb::new(cart);
            for frame in 0..20u32 {
                gb.set_buttons(Buttons((rng.next() >> (frame % 8)) as u8));
                gb.run_frame();
            }
            // Clones and the side-effect-free reads work in any state.
            let copy = gb.clone();
            for addr in (0..=0xFFFFu16).step_by(97) {
                assert_eq!(copy.peek(addr), gb.peek(addr), "round {round}");
            }
            locked += usize::from(gb.is_locked());
            runs += 1;
        }
    }
    // Random code hits an illegal opcode sooner or later; the CPU must lock up, not panic.
    assert!(locked > runs / 4, "only {locked} of {runs} runs locked up");
}
