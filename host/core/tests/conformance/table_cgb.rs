//! The conformance table on the CGB: the ROMs of the shared folder that run on the CGB model,
//! and how their results are read there (the CGB's references). Mooneye's tests come from
//! `table.rs` (their file names say which models they are for); gbc-hw-tests and rtc3test
//! have CGB rows of their own. A DMG ROM runs in the CGB's DMG compatibility mode.

use crate::{Kind, Run};

/// Why Blargg's dmg_sound does not run on the CGB.
const DMG_SOUND: &str = "DMG sound: the CGB's sound differs, cgb_sound tests it";
/// Why Blargg's oam_bug singles do not run on the CGB. (The combined ROM's CGB screen, which
/// shows the tests that find no bug, is compared lit/unlit: the capture widened colours as
/// `c << 3`, white is 248.)
const OAM_BUG: &str =
    "the CGB has no OAM corruption bug; the combined ROM's CGB screen is compared";

/// Why four Mealybug ROMs do not run on the CGB.
const PLACEHOLDER: &str = "no CGB reference: the CPU CGB C and D images are placeholders (\"Expected \
     result not currently available\")";

/// Every CGB row, as a path under the ROM folder, and how to read its result.
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
            expected: "blargg/expected/interrupt_time/interrupt_time-cgb.png",
            run: Run::Frames(600),
        },
    ),
    (
        "blargg/dmg_sound/dmg_sound.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/01-registers.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/02-len ctr.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/03-trigger.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/04-sweep.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/05-sweep details.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/06-overflow on trigger.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/07-len sweep period sync.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/08-len ctr during power.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/09-wave read while on.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/10-wave trigger while on.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/11-regs after power.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/dmg_sound/rom_singles/12-wave write while on.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/01-registers.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/02-len ctr.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/03-trigger.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/04-sweep.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/05-sweep details.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/06-overflow on trigger.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/07-len sweep period sync.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/08-len ctr during power.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/09-wave read while on.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/10-wave trigger while on.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/11-regs after power.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/variants/dmg_sound-2/12-wave write while on.gb",
        Kind::NotApplicable(DMG_SOUND),
    ),
    (
        "blargg/oam_bug/oam_bug.gb",
        Kind::ScreenLit {
            expected: "blargg/expected/oam_bug/oam_bug-cgb.png",
            run: Run::Frames(1200),
        },
    ),
    (
        "blargg/oam_bug/rom_singles/1-lcd_sync.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/oam_bug/rom_singles/2-causes.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/oam_bug/rom_singles/3-non_causes.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/oam_bug/rom_singles/4-scanline_timing.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/oam_bug/rom_singles/5-timing_bug.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/oam_bug/rom_singles/6-timing_no_bug.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/oam_bug/rom_singles/7-timing_effect.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/oam_bug/rom_singles/8-instr_effect.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    ("blargg/variants/oam_bug-2.gb", Kind::NotApplicable(OAM_BUG)),
    (
        "blargg/variants/oam_bug-2/1-lcd_sync.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/variants/oam_bug-2/2-causes.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/variants/oam_bug-2/3-non_causes.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/variants/oam_bug-2/4-scanline_timing.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/variants/oam_bug-2/5-timing_bug.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/variants/oam_bug-2/6-timing_no_bug.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/variants/oam_bug-2/7-timing_effect.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    (
        "blargg/variants/oam_bug-2/8-instr_effect.gb",
        Kind::NotApplicable(OAM_BUG),
    ),
    ("blargg/cgb_sound/cgb_sound.gb", Kind::Blargg),
    ("blargg/cgb_sound/rom_singles/01-registers.gb", Kind::Blargg),
    ("blargg/cgb_sound/rom_singles/02-len ctr.gb", Kind::Blargg),
    ("blargg/cgb_sound/rom_singles/03-trigger.gb", Kind::Blargg),
    ("blargg/cgb_sound/rom_singles/04-sweep.gb", Kind::Blargg),
    (
        "blargg/cgb_sound/rom_singles/05-sweep details.gb",
        Kind::Blargg,
    ),
    (
        "blargg/cgb_sound/rom_singles/06-overflow on trigger.gb",
        Kind::Blargg,
    ),
    (
        "blargg/cgb_sound/rom_singles/07-len sweep period sync.gb",
        Kind::Blargg,
    ),
    (
        "blargg/cgb_sound/rom_singles/08-len ctr during power.gb",
        Kind::Blargg,
    ),
    (
        "blargg/cgb_sound/rom_singles/09-wave read while on.gb",
        Kind::Blargg,
    ),
    (
        "blargg/cgb_sound/rom_singles/10-wave trigger while on.gb",
        Kind::Blargg,
    ),
    (
        "blargg/cgb_sound/rom_singles/11-regs after power.gb",
        Kind::Blargg,
    ),
    ("blargg/cgb_sound/rom_singles/12-wave.gb", Kind::Blargg),
    (
        "mooneye/madness/mgb_oam_dma_halt_sprites.gb",
        Kind::NotApplicable("MGB only"),
    ),
    (
        "mooneye/manual-only/sprite_priority.gb",
        Kind::Screen {
            expected: "mooneye/expected/c-sp/manual-only/sprite_priority-cgb.png",
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
            expected: "acid2/expected/dmg-acid2/reference-cgb.png",
            run: Run::LdBB,
        },
    ),
    (
        "acid2/cgb-acid2.gbc",
        Kind::Screen {
            expected: "acid2/expected/cgb-acid2/reference.png",
            run: Run::LdBB,
        },
    ),
    (
        "cgb-acid-hell/cgb-acid-hell.gbc",
        Kind::Screen {
            expected: "cgb-acid-hell/expected/cgb-acid-hell.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m2_win_en_toggle.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m2_win_en_toggle.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_bgp_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_bgp_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_bgp_change_sprites.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_bgp_change_sprites.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_bg_en_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_bg_en_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_bg_en_change2.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_bg_en_change2.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_bg_map_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_bg_map_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_bg_map_change2.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_bg_map_change2.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_obj_en_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_obj_en_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_obj_en_change_variant.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_obj_en_change_variant.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_obj_size_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_obj_size_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_obj_size_change_scx.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_obj_size_change_scx.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_tile_sel_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_tile_sel_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_tile_sel_change2.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_tile_sel_change2.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_tile_sel_win_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_tile_sel_win_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_tile_sel_win_change2.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_tile_sel_win_change2.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_win_en_change_multiple.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_win_en_change_multiple.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_win_en_change_multiple_wx.gb",
        Kind::NotApplicable(PLACEHOLDER),
    ),
    (
        "mealybug/m3_lcdc_win_map_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_win_map_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_lcdc_win_map_change2.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_lcdc_win_map_change2.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_obp0_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_obp0_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_scx_high_5_bits.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_scx_high_5_bits.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_scx_high_5_bits_change2.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_scx_high_5_bits_change2.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_scx_low_3_bits.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_scx_low_3_bits.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_scy_change.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_scy_change.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_scy_change2.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_scy_change2.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_window_timing.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_window_timing.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_window_timing_wx_0.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_window_timing_wx_0.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_wx_4_change.gb",
        Kind::NotApplicable(PLACEHOLDER),
    ),
    (
        "mealybug/m3_wx_4_change_sprites.gb",
        Kind::Screen {
            expected: "mealybug/expected/CPU CGB C/m3_wx_4_change_sprites.png",
            run: Run::LdBB,
        },
    ),
    (
        "mealybug/m3_wx_5_change.gb",
        Kind::NotApplicable(PLACEHOLDER),
    ),
    (
        "mealybug/m3_wx_6_change.gb",
        Kind::NotApplicable(PLACEHOLDER),
    ),
];
