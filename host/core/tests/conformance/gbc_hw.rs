//! AntonioND's gbc-hw-tests: results written to cartridge RAM, compared with the RAM dumped
//! from a DMG after the same test (`real_gb.sav` beside each ROM) on the DMG model, and from a
//! CGB (`real_gbc.sav`) on the CGB model. One trial per ROM and model. The dumps' CGB behaves
//! as a CPU CGB D (its RAM at 0xFEC0-0xFEFF, its LY=LYC flag, its line 153): the CGB runs are
//! made on that revision (`docs/conformance.md`, "The CGB revision").
//!
//! The tests are plain programs, not menus: each runs its measurements, writes the results
//! from $A000 on (every one of them here on an MBC5 with 8 or 32 KiB of RAM), usually follows
//! them with the magic number `12 34 56 78`, then writes $00 to $0000 to disable the RAM and
//! sits in `halt`/`jr` forever (often after starting a beep). Some never disable it:
//! `mode2_read_oam_spr_dis_dmg_mode` ends with the magic number and a `halt` loop,
//! `halt_strange_things` halts for good (IE = $E0) right after its last magic number, and
//! `joy_interrupt_manual_delay` writes its result and the magic number from its joypad
//! interrupt handler. So a run ends once cartridge RAM has been written and is disabled, or
//! the magic number stands where the dump ends with it, or the CPU is in HALT with no
//! interrupt enabled, and that lasts [`SETTLE_FRAMES`] frames (`dma_copy_during_halt_speed` disables and re-enables RAM once on the way).
//! `joy_interrupt_manual_delay` wants a button held from power-on ("Keep any button pressed
//! when initing the ROM"): A is held for the whole run. Two tests sit in STOP until a button
//! is pressed: `dma_halt_stop_speedchange` says so ("Press any key when running this"), and
//! `corrupted_stop`'s dumps (all four models) show exactly one STOP left, which a press does
//! (the next STOP, with the button still held, is a HALT that never ends): both get A for a
//! few frames once they sit in STOP. A run that does not end within [`MAX_FRAMES`] is
//! compared anyway and says so.
//!
//! What is compared: the first `n` bytes of cartridge RAM (flat, bank 0 first) with the
//! first `n` of the dump, where `n` is the dump's length: the author trimmed most dumps to
//! the results and the magic number. Two dumps (`corrupted_stop`, `timer_reset_2`) are raw
//! 128 KiB dumps of an 8 KiB cartridge: after the test's own bytes they hold what the SRAM
//! held before (other tests' results, a ROM image), so only the bytes their sources write
//! are compared ([`RAW_DUMPS`]). The tests that have no `real_gb.sav` are CGB-only (a
//! `real_gbc.sav` only: run on the CGB model alone) or have no dump at all (their result is
//! on screen or by ear).
//!
//! The dumps' cartridge is a flash cartridge whose RAM select ignores address line 14: the
//! CGB's DMA units, reading 0xE000-0xFFFF from the cartridge bus, get its RAM at
//! `addr - 0x4000` (`dma_valid_sources_gbc_mode`'s notes: "Copying from E000 or higher reads
//! from SRAM at A000"; `hdma_valid_sources`), where a cartridge with a real mapper leaves the
//! bus open (Gambatte's `oamdma_srcE000_*` on the CGB; SameBoy: "This is cart specific!").
//! The runs set [`gb_core::Cartridge::set_ram_ignores_a14`].

use crate::Kind;
use crate::Outcome;
use gb_core::{Buttons, CgbRevision, Model};
use std::path::Path;

/// Why a ROM with only CGB dumps is not run on the DMG.
const CGB_ONLY: &str =
    "CGB only: dumps from CGB/GBA hardware only (no real_gb.sav): run on the CGB model";
/// Why a ROM without any dump is not run.
const NO_DUMP: &str = "no hardware RAM dump to compare with (the result is on screen or by ear)";

/// Frames the end condition must hold before the run stops (one emulated second).
const SETTLE_FRAMES: u32 = 60;
/// Longest run, in frames (60 emulated seconds; the longest test takes a few seconds).
const MAX_FRAMES: u32 = 3600;
/// The number most tests write after their results.
const MAGIC: [u8; 4] = [0x12, 0x34, 0x56, 0x78];
/// The raw 128 KiB dumps of 8 KiB cartridges, and how many of their bytes the test wrote
/// (from its source): `corrupted_stop` writes its counter and four $12 once per STOP it
/// leaves, and leaves one on hardware (its second STOP, with the button still held, is a HALT
/// with IE = 0: the CPU sleeps for good); `timer_reset_2` writes 320 bytes and the magic
/// number.
const RAW_DUMPS: &[(&str, usize)] = &[
    ("cpu/corrupted_stop/stop_corrupted.gbc", 5),
    ("timers/timer_reset_2/timer_reset_2.gbc", 324),
];
/// Differing offsets listed in a failure.
const SHOWN_DIFFS: usize = 8;

pub const ROMS: &[(&str, Kind)] = &[
    (
        "gbc-hw-tests/cpu/corrupted_stop/stop_corrupted.gbc",
        Kind::Custom(run_pressing_a),
    ),
    (
        "gbc-hw-tests/cpu/corrupted_stop_2/stop_corrupted.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/cpu/corrupted_stop_sound/stop_corrupted.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/cpu/cpu_registers_initial_dmg/cpu_registers_initial_dmg.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/cpu/cpu_registers_initial_gbc/cpu_registers_initial_gbc.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/cpu/daa/daa_test.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/cpu/halt_bug_test/halt_bug_test.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/cpu/halt_bug_timing/halt_bug_timing.gbc",
        Kind::Custom(run),
    ),
    ("gbc-hw-tests/cpu/halt_if/halt_if.gbc", Kind::Custom(run)),
    (
        "gbc-hw-tests/cpu/halt_ret_address/halt_ret_address.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/cpu/halt_strange_things/halt_strange_things.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/cpu/if_flag_cleared/if_flag_cleared.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/cpu/speed_change_cancel/speed_change_cancel.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/cpu/speed_change_timing_coarse/speed_change_timing_coarse.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/cpu/speed_change_timing_fine/speed_change_timing_fine.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/cpu/stop_lcd_on_off/stop_lcd_on_off.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/cpu/stop_no_exit/stop_no_exit.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/cpu/undefined_opcodes/undefined_opcodes.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/cpu/undefined_opcodes_2/undefined_opcodes_2.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/dma/dma_copy_during_halt_speed/dma_copy_during_halt_speed.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/dma/dma_halt_stop_speedchange/dma_halt_stop_speedchange.gbc",
        Kind::Custom(run_pressing_a),
    ),
    (
        "gbc-hw-tests/dma/dma_irq/dma_irq.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/dma/dma_restart/dma_restart.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/dma/dma_timing_1/dma_timing.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/dma/dma_timing_2/dma_timing.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/dma/dma_timing_dblspeed/dma_timing_dblspeed.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/dma_timing_lcd_on/dma_timing_lcd_on.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/dma/dma_valid_sources_dmg_mode/dma_valid_sources_dmg.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/dma/dma_valid_sources_gbc_mode/dma_valid_sources_gbc.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/gdma_irq/gdma_irq.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/gdma_timing_coarse/gdma_timing_coarse.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/gdma_timing_fine/gdma_timing_fine.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/hdma_halt/hdma_halt.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/hdma_modify_address/hdma_modify_address.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/hdma_start/hdma_start_test.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/hdma_start_2/hdma_start_test2.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/hdma_start_3/hdma_start_test3.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/hdma_timing_fine/hdma_timing_fine.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/hdma_valid_dest_swap_bank/hdma_valid_dest_swap_bank.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/dma/hdma_valid_sources/hdma_valid_sources.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/interrupts/halt_exit_timings_ime_disabled_dmg_mode/halt_exit_timings_ime_disabled.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/interrupts/halt_exit_timings_ime_disabled_gbc_mode/halt_exit_timings_ime_disabled.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/interrupts/halt_exit_timings_ime_enabled_dmg_mode/halt_exit_timings_ime_enabled.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/interrupts/halt_exit_timings_ime_enabled_gbc_mode/halt_exit_timings_ime_enabled.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/interrupts/int_timing_halt_dmg_mode/int_timing.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/interrupts/int_timing_halt_gbc_mode/int_timing.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/interrupts/int_timing_no_halt_dmg_mode/int_timing.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/interrupts/int_timing_no_halt_gbc_mode/int_timing.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/interrupts/joy_interrupt/joy_interrupt.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/interrupts/joy_interrupt_manual/joy_interrupt_manual.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/interrupts/joy_interrupt_manual_delay/joy_interrupt_manual_delay.gbc",
        Kind::Custom(run_holding_a),
    ),
    (
        "gbc-hw-tests/interrupts/lcd_irq_delay_timer_halt_dmg_mode/lcd_irq_delay_timer_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/interrupts/lcd_irq_delay_timer_halt_gbc_mode/lcd_irq_delay_timer_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/interrupts/lcd_irq_delay_timer_no_halt_dmg_mode/lcd_irq_delay_timer_no_halt_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/interrupts/lcd_irq_delay_timer_no_halt_gbc_mode/lcd_irq_delay_timer_no_halt_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/interrupts/serial_int_handle_timing_dmg_mode/serial_int_handle_timing_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/interrupts/serial_int_handle_timing_gbc_mode/serial_int_handle_timing_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/interrupts/set_clear_ime_delays/ei_ime_delay.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/interrupts/timer_int_handle_timing_dmg_mode/timer_int_handle_timing_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/interrupts/timer_int_handle_timing_gbc_mode/timer_int_handle_timing_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/interrupts/vbl_irq_delay_timer_dmg_mode/vbl_irq_delay_timer_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/interrupts/vbl_irq_delay_timer_gbc_mode/vbl_irq_delay_timer_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/last_ly_clocks/last_ly_clocks.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/last_ly_ly_change/last_ly_ly_change.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/alt_if_timings_lyc_1_143_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/alt_if_timings_lyc_1_143_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/alt_if_timings_lyc_2_144_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/alt_if_timings_lyc_2_144_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/alt_ly_timings_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/alt_ly_timings_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/if_timings_lyc_0_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/if_timings_lyc_0_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/if_timings_lyc_152_153_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/if_timings_lyc_152_153_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/ly_timings_lyc_0_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/ly_timings_lyc_0_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/ly_timings_lyc_152_153_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/ly_timings_lyc_152_153_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/ly_timings_lyc_1_143_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/ly_timings_lyc_1_143_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/ly_timings_lyc_2_144_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/ly_timings_lyc_2_144_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/stat_timings_lyc_0_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/stat_timings_lyc_0_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/stat_timings_lyc_152_153_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/stat_timings_lyc_152_153_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/stat_timings_lyc_1_143_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/stat_timings_lyc_1_143_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/stat_timings_lyc_2_144_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/ly_equals_lyc/stat_timings_lyc_2_144_gbc_mode/lcd_frame_timings_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode1/mode1_disablestat_dmg_mode/mode1_disableint_dmg.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode1/mode1_disablestat_end_dmg_mode/mode1_disableint_dmg.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode1/mode1_disablestat_end_gbc_mode/mode1_disableint_gbc.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode1/mode1_disablestat_gbc_mode/mode1_disableint_gbc.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode1/mode1_disablevbl_dmg_mode/mode1_disableint_dmg.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode1/mode1_disablevbl_gbc_mode/mode1_disableint_gbc.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode1/timings_mode1int_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode1/timings_mode1int_gbc_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode1/vbl_mode1_lcdoff_dmg_mode/mode1_disableint_dmg.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode1/vbl_mode1_lcdoff_gbc_mode/mode1_disableint_gbc.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode2/timings_mode2int_ly0_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode2/timings_mode2int_ly0_gbc_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/lcd_frame_timings/mode2/timings_mode2int_ly1_dmg_mode/lcd_frame_timings_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/ly_clocks/ly_clocks.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_oam_timing_spr_dis_dmg_mode/mode2_timing_spr_dis.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_oam_timing_spr_dis_gbc_mode/mode2_timing_spr_dis.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_oam_timing_spr_en_dmg_mode/mode2_timing_spr_en.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_oam_timing_spr_en_gbc_mode/mode2_timing_spr_en.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_read_oam_spr_dis_dmg_mode/mode2_read_oam_dmg_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_read_oam_spr_dis_gbc_mode/mode2_read_oam.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_read_oam_spr_en_dmg_mode/mode2_read_oam_dmg_mode_spr_en.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_read_oam_spr_en_gbc_mode/mode2_read_oam_spr_en.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_stat_timing_spr_dis_dmg_mode/mode2_timing_spr_dis.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_stat_timing_spr_dis_dmg_mode_8x16/mode2_timing_spr_dis.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_stat_timing_spr_dis_gbc_mode/mode2_timing_spr_dis.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_stat_timing_spr_dis_gbc_mode_8x16/mode2_timing_spr_dis.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_stat_timing_spr_en_dmg_mode/mode2_timing_spr_en.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_stat_timing_spr_en_dmg_mode_8x16/mode2_timing_spr_en.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_stat_timing_spr_en_gbc_mode/mode2_timing_spr_en.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/mode2/mode2_stat_timing_spr_en_gbc_mode_8x16/mode2_timing_spr_en.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/mode3/mode3_stat_timing_spr_en_gbc_mode_8x16/mode3_timing_spr_en.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/lcd/power_on_off/lcd_poweroff_wait/only_2_3_frames.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/lcd/power_on_off/lcd_poweron_state/lcd_poweron_state.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/lcd/power_on_off/more_than_60fps/more_than_60fps.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/lcd/power_on_off/only_2_3_frames/only_2_3_frames.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/lcd/power_on_off/only_2_3_frames_stopdraw/only_2_3_frames.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/lcd/power_on_off/only_2_3_frames_switchpal/only_2_3_frames.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/lcd/power_on_off/only_60fps/only_60fps.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/lcd/vertical_refresh_clocks/vertical_refresh_clocks.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/memory/echo_ram_read/echo_ram_read.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/memory/echo_ram_write/echo_ram_write.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/memory/misc_rw_registers_gb_mode/misc_rw_registers_gb_mode.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/memory/misc_rw_registers_gbc_mode/misc_rw_registers_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/memory/oam_echo_ram_lcd_on/oam_echo_ram_lcd_on.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/memory/oam_echo_ram_read/oam_echo_ram_read.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/memory/oam_echo_ram_read_2/oam_echo_ram_read_2.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/memory/oam_echo_ram_read_gbc_in_dmg_mode/oam_echo_ram_read_gbc_dmg_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/memory/timer_read_write_registers/timer_rw_regs.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/serial/sc_change_freq_gbc/sc_change_freq_gbc.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/serial/sio_irq_delay/sio_irq_delay.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/sound/div_resets_sound_test/div_resets_sound_test.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/sound/fade_double_speed/sound_thing.gbc",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/timers/div_reset_65k/div_reset_65k.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_reset_div/div_reset_div.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_reset_serial/div_reset_serial.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_reset_timing/div_timing_test.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_reset_when_inc/div_reset_when_inc.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_resets_tima_16k/div_resets_tima_16k.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_resets_tima_262k/div_resets_tima_262k.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_resets_tima_4k/div_resets_tima_4k.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_resets_tima_4k_2/div_resets_tima_4k_2.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_resets_tima_65k/div_resets_tima_65k.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_resets_timer/div_resets_timer.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/div_resets_timer_overflow/div_resets_timer_overflow.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/sys_clocks_init_dmg_mode/sys_clocks_init.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/sys_clocks_init_gbc_mode/sys_clocks_init_gbc_mode.gbc",
        Kind::NotApplicable(CGB_ONLY),
    ),
    (
        "gbc-hw-tests/timers/tac_set_disabled/tac_set_disable.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tac_set_enabled/tac_set_enabled.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tac_set_everything/tac_set_everything.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tac_set_timer_disabled/tac_set_timer_disabled.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tac_set_timer_disabled_2/tac_set_timer_disabled_2.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tac_set_when_inc_1024/tac_set_when_inc_1024.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tac_set_when_inc_16/tac_set_when_inc_16.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tac_set_when_inc_256/tac_set_when_inc_256.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tac_set_when_inc_64/tac_set_when_inc_64.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tima_manual_overflow_fail/tima_set_weird.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tima_set/tima_set.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tima_set_when_inc/tima_set_when_inc.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/tima_tma_div_set_range_64/tima_tma_div_set_range_64.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/timer_init/timer_init.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/timer_irq_delay/timer_irq_delay.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/timer_irq_delay_disable_irq/timer_irq_delay_disable_irq.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/timer_irq_delay_if_tima/timer_irq_delay_if_tima.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/timer_reset_2/timer_reset_2.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/timer_reset_test/timer_reset_test.gbc",
        Kind::Custom(run),
    ),
    (
        "gbc-hw-tests/timers/timer_timing/timer_timing_test.gbc",
        Kind::Custom(run),
    ),
    ("gbc-hw-tests/timers/tma_set/tma_set.gbc", Kind::Custom(run)),
    (
        "gbc-hw-tests/video/bg_disabled_dmg/bg_disabled_dmg.gb",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/video/bg_disabled_dmg_wx/bg_disabled_dmg.gb",
        Kind::NotApplicable(NO_DUMP),
    ),
    (
        "gbc-hw-tests/video/bg_disabled_gbc/bg_disabled_gbc.gb",
        Kind::NotApplicable(NO_DUMP),
    ),
];

/// The rows on the CGB: every ROM with a CGB dump, the DMG's rows with the CGB-only ones run
/// (its `*_dmg_mode` ROMs run in the CGB's DMG compatibility mode, as the dumps were taken).
pub fn roms_cgb() -> impl Iterator<Item = (&'static str, Kind)> {
    ROMS.iter().map(|&(path, kind)| match kind {
        Kind::NotApplicable(why) if why == CGB_ONLY => (path, Kind::Custom(run)),
        other => (path, other),
    })
}

/// The joypad during a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    /// Nothing pressed.
    None,
    /// A held from power-on to the end.
    HoldA,
    /// A pressed for a few frames once the test sits in STOP ([`PRESS_AT`]).
    PressA,
}

/// When [`Input::PressA`] presses A, and for how many frames.
const PRESS_AT: std::ops::Range<u32> = 60..66;

fn run(root: &Path, path: &str, model: Model) -> Result<Outcome, String> {
    run_test(root, path, Input::None, model)
}

fn run_holding_a(root: &Path, path: &str, model: Model) -> Result<Outcome, String> {
    run_test(root, path, Input::HoldA, model)
}

fn run_pressing_a(root: &Path, path: &str, model: Model) -> Result<Outcome, String> {
    run_test(root, path, Input::PressA, model)
}

/// The dump a ROM's RAM is compared with on `model`: `real_gb.sav` or `real_gbc.sav`; two
/// folders have two CGB dumps instead, of which the one for a run without input is taken
/// (`speed_change_cancel`: `real_gbc_not_pressed.sav`) or the first (`tac_set_everything`:
/// `real_gbc_1.sav`, the two differ in the bytes that depend on the power-on phase).
fn dump_name(dir: &Path, model: Model) -> &'static str {
    match model {
        Model::Dmg => "real_gb.sav",
        Model::Cgb => ["real_gbc.sav", "real_gbc_not_pressed.sav", "real_gbc_1.sav"]
            .into_iter()
            .find(|name| dir.join(name).is_file())
            .unwrap_or("real_gbc.sav"),
    }
}

fn run_test(root: &Path, path: &str, input: Input, model: Model) -> Result<Outcome, String> {
    let rom_path = root.join(path);
    let dir = rom_path
        .parent()
        .ok_or_else(|| format!("{path} has no folder"))?;
    let dump_file = dump_name(dir, model);
    let dump_path = dir.join(dump_file);
    let dump = std::fs::read(&dump_path)
        .map_err(|e| format!("cannot read {}: {e}", dump_path.display()))?;
    // The dumps' CGB behaves as a CPU CGB D (see the module docs).
    let mut gb = crate::load_revision(root, path, model, CgbRevision::D)?;
    // The dumps' cartridge answers at 0xE000-0xFFFF (see the module docs).
    gb.cartridge_mut().set_ram_ignores_a14(true);

    let len = compare_len(path, &dump, gb.cartridge().ram().len()).min(dump.len());
    let magic_at = len.checked_sub(MAGIC.len());
    let power_on_ram = gb.cartridge().ram().to_vec();
    let mut settled = 0;
    let mut frames = 0;
    while frames < MAX_FRAMES && settled < SETTLE_FRAMES {
        gb.set_buttons(match input {
            Input::HoldA => Buttons::A,
            Input::PressA if PRESS_AT.contains(&frames) => Buttons::A,
            Input::None | Input::PressA => Buttons::default(),
        });
        gb.run_frame();
        frames += 1;
        let ram = gb.cartridge().ram();
        // Polled at frame ends: a quick test enables, writes and disables within a frame.
        let disabled = gb.cartridge().ram_bank_mapped().is_none() && ram != &power_on_ram[..];
        let magic = magic_at.is_some_and(|at| ram.get(at..at + MAGIC.len()) == Some(&MAGIC[..]));
        // HALT with no interrupt enabled: nothing will ever happen again.
        let asleep = gb.is_halted() && gb.peek(0xFFFF) & 0x1F == 0;
        let over = disabled || magic || asleep;
        settled = if over { settled + 1 } else { 0 };
    }
    let finished = settled >= SETTLE_FRAMES;
    let ram = gb.cartridge().ram();
    let verdict = compare(&ram[..len.min(ram.len())], &dump[..len], dump_file).map_err(|diff| {
        // The whole RAM beside the conformance images, to look at with the dump.
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance");
        let file = dir.join(format!("{}.sav", path.replace('/', "_")));
        let _ = std::fs::create_dir_all(&dir);
        match std::fs::write(&file, ram) {
            Ok(()) => format!("{diff}; actual RAM: {}", file.display()),
            Err(_) => diff,
        }
    });
    Ok(match (verdict, finished) {
        (Ok(()), true) => Outcome::Pass,
        (Ok(()), false) => Outcome::Fail(format!(
            "RAM matches the dump but the test never finished within {MAX_FRAMES} frames"
        )),
        (Err(diff), true) => Outcome::Fail(diff),
        (Err(diff), false) => {
            Outcome::Fail(format!("never finished within {MAX_FRAMES} frames; {diff}"))
        }
    })
}

/// How many bytes of the dump are the test's: all of them (up to the RAM size), except in the
/// two raw dumps ([`RAW_DUMPS`]).
fn compare_len(path: &str, dump: &[u8], ram_len: usize) -> usize {
    match RAW_DUMPS.iter().find(|(p, _)| path.ends_with(p)) {
        Some(&(_, len)) => len,
        None => dump.len().min(ram_len),
    }
}

/// Compare the test's RAM with the dump; the error lists the first differing offsets.
fn compare(ram: &[u8], dump: &[u8], dump_file: &str) -> Result<(), String> {
    let diffs: Vec<usize> = (0..dump.len())
        .filter(|&i| ram.get(i) != dump.get(i))
        .collect();
    if diffs.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = diffs
        .iter()
        .take(SHOWN_DIFFS)
        .map(|&i| {
            let got = ram.get(i).map_or("--".to_string(), |b| format!("{b:02X}"));
            format!("${i:04X}: {got} (hardware {:02X})", dump[i])
        })
        .collect();
    Err(format!(
        "{} of {} bytes differ from {dump_file}; first: {}{}",
        diffs.len(),
        dump.len(),
        shown.join(", "),
        if diffs.len() > SHOWN_DIFFS {
            ", …"
        } else {
            ""
        }
    ))
}
