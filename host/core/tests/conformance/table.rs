//! The conformance table: every test ROM in the shared folder and how its result is read.

use crate::{Kind, Run};

/// Every ROM, as a path under the ROM folder, and how to read its result.
pub const ROMS: &[(&str, Kind)] = &[
    ("blargg/cpu_instrs/cpu_instrs.gb", Kind::Blargg),
    ("blargg/cpu_instrs/individual/01-special.gb", Kind::Blargg),
    (
        "blargg/cpu_instrs/individual/02-interrupts.gb",
        Kind::Blargg,
    ),
    ("blargg/cpu_instrs/individual/03-op sp,hl.gb", Kind::Blargg),
    ("blargg/cpu_instrs/individual/04-op r,imm.gb", Kind::Blargg),
    ("blargg/cpu_instrs/individual/05-op rp.gb", Kind::Blargg),
    ("blargg/cpu_instrs/individual/06-ld r,r.gb", Kind::Blargg),
    (
        "blargg/cpu_instrs/individual/07-jr,jp,call,ret,rst.gb",
        Kind::Blargg,
    ),
    (
        "blargg/cpu_instrs/individual/08-misc instrs.gb",
        Kind::Blargg,
    ),
    ("blargg/cpu_instrs/individual/09-op r,r.gb", Kind::Blargg),
    ("blargg/cpu_instrs/individual/10-bit ops.gb", Kind::Blargg),
    ("blargg/cpu_instrs/individual/11-op a,(hl).gb", Kind::Blargg),
    ("blargg/instr_timing/instr_timing.gb", Kind::Blargg),
    ("blargg/mem_timing/mem_timing.gb", Kind::Blargg),
    (
        "blargg/mem_timing/individual/01-read_timing.gb",
        Kind::Blargg,
    ),
    (
        "blargg/mem_timing/individual/02-write_timing.gb",
        Kind::Blargg,
    ),
    (
        "blargg/mem_timing/individual/03-modify_timing.gb",
        Kind::Blargg,
    ),
    ("blargg/mem_timing-2/mem_timing.gb", Kind::Blargg),
    (
        "blargg/mem_timing-2/rom_singles/01-read_timing.gb",
        Kind::Blargg,
    ),
    (
        "blargg/mem_timing-2/rom_singles/02-write_timing.gb",
        Kind::Blargg,
    ),
    (
        "blargg/mem_timing-2/rom_singles/03-modify_timing.gb",
        Kind::Blargg,
    ),
    (
        "blargg/halt_bug.gb",
        Kind::Screen {
            expected: "blargg/expected/halt_bug-dmg-cgb.png",
            run: Run::Frames(600),
        },
    ),
    (
        "blargg/interrupt_time/interrupt_time.gb",
        Kind::Screen {
            expected: "blargg/expected/interrupt_time/interrupt_time-dmg.png",
            run: Run::Frames(600),
        },
    ),
    ("blargg/dmg_sound/dmg_sound.gb", Kind::Blargg),
    ("blargg/dmg_sound/rom_singles/01-registers.gb", Kind::Blargg),
    ("blargg/dmg_sound/rom_singles/02-len ctr.gb", Kind::Blargg),
    ("blargg/dmg_sound/rom_singles/03-trigger.gb", Kind::Blargg),
    ("blargg/dmg_sound/rom_singles/04-sweep.gb", Kind::Blargg),
    (
        "blargg/dmg_sound/rom_singles/05-sweep details.gb",
        Kind::Blargg,
    ),
    (
        "blargg/dmg_sound/rom_singles/06-overflow on trigger.gb",
        Kind::Blargg,
    ),
    (
        "blargg/dmg_sound/rom_singles/07-len sweep period sync.gb",
        Kind::Blargg,
    ),
    (
        "blargg/dmg_sound/rom_singles/08-len ctr during power.gb",
        Kind::Blargg,
    ),
    (
        "blargg/dmg_sound/rom_singles/09-wave read while on.gb",
        Kind::Blargg,
    ),
    (
        "blargg/dmg_sound/rom_singles/10-wave trigger while on.gb",
        Kind::Blargg,
    ),
    (
        "blargg/dmg_sound/rom_singles/11-regs after power.gb",
        Kind::Blargg,
    ),
    (
        "blargg/dmg_sound/rom_singles/12-wave write while on.gb",
        Kind::Blargg,
    ),
    ("blargg/variants/dmg_sound-2.gb", Kind::Blargg),
    ("blargg/variants/dmg_sound-2/01-registers.gb", Kind::Blargg),
    ("blargg/variants/dmg_sound-2/02-len ctr.gb", Kind::Blargg),
    ("blargg/variants/dmg_sound-2/03-trigger.gb", Kind::Blargg),
    ("blargg/variants/dmg_sound-2/04-sweep.gb", Kind::Blargg),
    (
        "blargg/variants/dmg_sound-2/05-sweep details.gb",
        Kind::Blargg,
    ),
    (
        "blargg/variants/dmg_sound-2/06-overflow on trigger.gb",
        Kind::Blargg,
    ),
    (
        "blargg/variants/dmg_sound-2/07-len sweep period sync.gb",
        Kind::Blargg,
    ),
    (
        "blargg/variants/dmg_sound-2/08-len ctr during power.gb",
        Kind::Blargg,
    ),
    (
        "blargg/variants/dmg_sound-2/09-wave read while on.gb",
        Kind::Blargg,
    ),
    (
        "blargg/variants/dmg_sound-2/10-wave trigger while on.gb",
        Kind::Blargg,
    ),
    (
        "blargg/variants/dmg_sound-2/11-regs after power.gb",
        Kind::Blargg,
    ),
    (
        "blargg/variants/dmg_sound-2/12-wave write while on.gb",
        Kind::Blargg,
    ),
    ("blargg/oam_bug/oam_bug.gb", Kind::Blargg),
    ("blargg/oam_bug/rom_singles/1-lcd_sync.gb", Kind::Blargg),
    ("blargg/oam_bug/rom_singles/2-causes.gb", Kind::Blargg),
    ("blargg/oam_bug/rom_singles/3-non_causes.gb", Kind::Blargg),
    (
        "blargg/oam_bug/rom_singles/4-scanline_timing.gb",
        Kind::Blargg,
    ),
    ("blargg/oam_bug/rom_singles/5-timing_bug.gb", Kind::Blargg),
    (
        "blargg/oam_bug/rom_singles/6-timing_no_bug.gb",
        Kind::Blargg,
    ),
    (
        "blargg/oam_bug/rom_singles/7-timing_effect.gb",
        Kind::Blargg,
    ),
    ("blargg/oam_bug/rom_singles/8-instr_effect.gb", Kind::Blargg),
    ("blargg/variants/oam_bug-2.gb", Kind::Blargg),
    ("blargg/variants/oam_bug-2/1-lcd_sync.gb", Kind::Blargg),
    ("blargg/variants/oam_bug-2/2-causes.gb", Kind::Blargg),
    ("blargg/variants/oam_bug-2/3-non_causes.gb", Kind::Blargg),
    (
        "blargg/variants/oam_bug-2/4-scanline_timing.gb",
        Kind::Blargg,
    ),
    ("blargg/variants/oam_bug-2/5-timing_bug.gb", Kind::Blargg),
    ("blargg/variants/oam_bug-2/6-timing_no_bug.gb", Kind::Blargg),
    ("blargg/variants/oam_bug-2/7-timing_effect.gb", Kind::Blargg),
    ("blargg/variants/oam_bug-2/8-instr_effect.gb", Kind::Blargg),
    (
        "blargg/cgb_sound/cgb_sound.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/01-registers.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/02-len ctr.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/03-trigger.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/04-sweep.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/05-sweep details.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/06-overflow on trigger.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/07-len sweep period sync.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/08-len ctr during power.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/09-wave read while on.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/10-wave trigger while on.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/11-regs after power.gb",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "blargg/cgb_sound/rom_singles/12-wave.gb",
        Kind::NotApplicable("CGB only"),
    ),
    ("mooneye/acceptance/add_sp_e_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/bits/mem_oam.gb", Kind::Mooneye),
    ("mooneye/acceptance/bits/reg_f.gb", Kind::Mooneye),
    ("mooneye/acceptance/bits/unused_hwio-GS.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_div-S.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_div-dmg0.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_div-dmgABCmgb.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_div2-S.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_hwio-S.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_hwio-dmg0.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_hwio-dmgABCmgb.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_regs-dmg0.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_regs-dmgABC.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_regs-mgb.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_regs-sgb.gb", Kind::Mooneye),
    ("mooneye/acceptance/boot_regs-sgb2.gb", Kind::Mooneye),
    ("mooneye/acceptance/call_cc_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/call_cc_timing2.gb", Kind::Mooneye),
    ("mooneye/acceptance/call_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/call_timing2.gb", Kind::Mooneye),
    ("mooneye/acceptance/di_timing-GS.gb", Kind::Mooneye),
    ("mooneye/acceptance/div_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/ei_sequence.gb", Kind::Mooneye),
    ("mooneye/acceptance/ei_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/halt_ime0_ei.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/halt_ime0_nointr_timing.gb",
        Kind::Mooneye,
    ),
    ("mooneye/acceptance/halt_ime1_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/halt_ime1_timing2-GS.gb", Kind::Mooneye),
    ("mooneye/acceptance/if_ie_registers.gb", Kind::Mooneye),
    ("mooneye/acceptance/instr/daa.gb", Kind::Mooneye),
    ("mooneye/acceptance/interrupts/ie_push.gb", Kind::Mooneye),
    ("mooneye/acceptance/intr_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/jp_cc_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/jp_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/ld_hl_sp_e_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/oam_dma/basic.gb", Kind::Mooneye),
    ("mooneye/acceptance/oam_dma/reg_read.gb", Kind::Mooneye),
    ("mooneye/acceptance/oam_dma/sources-GS.gb", Kind::Mooneye),
    ("mooneye/acceptance/oam_dma_restart.gb", Kind::Mooneye),
    ("mooneye/acceptance/oam_dma_start.gb", Kind::Mooneye),
    ("mooneye/acceptance/oam_dma_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/pop_timing.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/ppu/hblank_ly_scx_timing-GS.gb",
        Kind::Mooneye,
    ),
    (
        "mooneye/acceptance/ppu/intr_1_2_timing-GS.gb",
        Kind::Mooneye,
    ),
    ("mooneye/acceptance/ppu/intr_2_0_timing.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/ppu/intr_2_mode0_timing.gb",
        Kind::Mooneye,
    ),
    (
        "mooneye/acceptance/ppu/intr_2_mode0_timing_sprites.gb",
        Kind::Mooneye,
    ),
    (
        "mooneye/acceptance/ppu/intr_2_mode3_timing.gb",
        Kind::Mooneye,
    ),
    (
        "mooneye/acceptance/ppu/intr_2_oam_ok_timing.gb",
        Kind::Mooneye,
    ),
    ("mooneye/acceptance/ppu/lcdon_timing-GS.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/ppu/lcdon_write_timing-GS.gb",
        Kind::Mooneye,
    ),
    ("mooneye/acceptance/ppu/stat_irq_blocking.gb", Kind::Mooneye),
    ("mooneye/acceptance/ppu/stat_lyc_onoff.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/ppu/vblank_stat_intr-GS.gb",
        Kind::Mooneye,
    ),
    ("mooneye/acceptance/push_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/rapid_di_ei.gb", Kind::Mooneye),
    ("mooneye/acceptance/ret_cc_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/ret_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/reti_intr_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/reti_timing.gb", Kind::Mooneye),
    ("mooneye/acceptance/rst_timing.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/serial/boot_sclk_align-dmgABCmgb.gb",
        Kind::Mooneye,
    ),
    ("mooneye/acceptance/timer/div_write.gb", Kind::Mooneye),
    ("mooneye/acceptance/timer/rapid_toggle.gb", Kind::Mooneye),
    ("mooneye/acceptance/timer/tim00.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/timer/tim00_div_trigger.gb",
        Kind::Mooneye,
    ),
    ("mooneye/acceptance/timer/tim01.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/timer/tim01_div_trigger.gb",
        Kind::Mooneye,
    ),
    ("mooneye/acceptance/timer/tim10.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/timer/tim10_div_trigger.gb",
        Kind::Mooneye,
    ),
    ("mooneye/acceptance/timer/tim11.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/timer/tim11_div_trigger.gb",
        Kind::Mooneye,
    ),
    ("mooneye/acceptance/timer/tima_reload.gb", Kind::Mooneye),
    (
        "mooneye/acceptance/timer/tima_write_reloading.gb",
        Kind::Mooneye,
    ),
    (
        "mooneye/acceptance/timer/tma_write_reloading.gb",
        Kind::Mooneye,
    ),
    ("mooneye/emulator-only/mbc1/bits_bank1.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc1/bits_bank2.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc1/bits_mode.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc1/bits_ramg.gb", Kind::Mooneye),
    (
        "mooneye/emulator-only/mbc1/multicart_rom_8Mb.gb",
        Kind::Mooneye,
    ),
    ("mooneye/emulator-only/mbc1/ram_256Kb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc1/ram_64Kb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc1/rom_16Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc1/rom_1Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc1/rom_2Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc1/rom_4Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc1/rom_512Kb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc1/rom_8Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc2/bits_ramg.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc2/bits_romb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc2/bits_unused.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc2/ram.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc2/rom_1Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc2/rom_2Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc2/rom_512kb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc5/rom_16Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc5/rom_1Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc5/rom_2Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc5/rom_4Mb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc5/rom_512kb.gb", Kind::Mooneye),
    ("mooneye/emulator-only/mbc5/rom_8Mb.gb", Kind::Mooneye),
    ("mooneye/misc/bits/unused_hwio-C.gb", Kind::Mooneye),
    ("mooneye/misc/boot_div-A.gb", Kind::Mooneye),
    ("mooneye/misc/boot_div-cgb0.gb", Kind::Mooneye),
    ("mooneye/misc/boot_div-cgbABCDE.gb", Kind::Mooneye),
    ("mooneye/misc/boot_hwio-C.gb", Kind::Mooneye),
    ("mooneye/misc/boot_regs-A.gb", Kind::Mooneye),
    ("mooneye/misc/boot_regs-cgb.gb", Kind::Mooneye),
    ("mooneye/misc/ppu/vblank_stat_intr-C.gb", Kind::Mooneye),
    (
        "mooneye/madness/mgb_oam_dma_halt_sprites.gb",
        Kind::NotApplicable("MGB only"),
    ),
    (
        "mooneye/manual-only/sprite_priority.gb",
        Kind::Screen {
            expected: "mooneye/expected/c-sp/manual-only/sprite_priority-dmg.png",
            run: Run::LdBB,
        },
    ),
    (
        "mooneye/utils/bootrom_dumper.gb",
        Kind::NotApplicable("utility, not a test"),
    ),
    (
        "mooneye/utils/dump_boot_hwio.gb",
        Kind::NotApplicable("utility, not a test"),
    ),
    (
        "acid2/dmg-acid2.gb",
        Kind::Screen {
            expected: "acid2/expected/dmg-acid2/reference-dmg.png",
            run: Run::LdBB,
        },
    ),
    ("acid2/cgb-acid2.gbc", Kind::NotApplicable("CGB only")),
    (
        "cgb-acid-hell/cgb-acid-hell.gbc",
        Kind::NotApplicable("CGB only"),
    ),
    (
        "mealybug/m2_win_en_toggle.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m2_win_en_toggle.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_bgp_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_bgp_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_bgp_change_sprites.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_bgp_change_sprites.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_bg_en_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-CPU B/m3_lcdc_bg_en_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_bg_en_change2.gb",
        Kind::NotApplicable("no DMG reference image"),
    ),
    (
        "mealybug/m3_lcdc_bg_map_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_lcdc_bg_map_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_bg_map_change2.gb",
        Kind::NotApplicable("no DMG reference image"),
    ),
    (
        "mealybug/m3_lcdc_obj_en_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_lcdc_obj_en_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_obj_en_change_variant.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_lcdc_obj_en_change_variant.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_obj_size_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_lcdc_obj_size_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_obj_size_change_scx.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_lcdc_obj_size_change_scx.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_tile_sel_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_lcdc_tile_sel_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_tile_sel_change2.gb",
        Kind::NotApplicable("no DMG reference image"),
    ),
    (
        "mealybug/m3_lcdc_tile_sel_win_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_lcdc_tile_sel_win_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_tile_sel_win_change2.gb",
        Kind::NotApplicable("no DMG reference image"),
    ),
    (
        "mealybug/m3_lcdc_win_en_change_multiple.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_lcdc_win_en_change_multiple.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_win_en_change_multiple_wx.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-CPU B/m3_lcdc_win_en_change_multiple_wx.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_win_map_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_lcdc_win_map_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_win_map_change2.gb",
        Kind::NotApplicable("no DMG reference image"),
    ),
    (
        "mealybug/m3_obp0_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_obp0_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_scx_high_5_bits.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_scx_high_5_bits.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_scx_high_5_bits_change2.gb",
        Kind::NotApplicable("no DMG reference image"),
    ),
    (
        "mealybug/m3_scx_low_3_bits.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_scx_low_3_bits.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_scy_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_scy_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_scy_change2.gb",
        Kind::NotApplicable("no DMG reference image"),
    ),
    (
        "mealybug/m3_window_timing.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_window_timing.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_window_timing_wx_0.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_window_timing_wx_0.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_wx_4_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_wx_4_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_wx_4_change_sprites.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_wx_4_change_sprites.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_wx_5_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_wx_5_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_wx_6_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/DMG-blob/m3_wx_6_change.png",
            run: Run::LdBB,
        },
    ),
];
