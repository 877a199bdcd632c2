//! BESS, the "Best Effort Save State" format of SameBoy (`BESS.md` in SameBoy's repository,
//! version 1.1): a save state other emulators can load, and that this core loads from them.
//!
//! A BESS file is a list of blocks appended to an emulator's own data, found from a footer at
//! the end of the file: the offset of the first block (u32) and the ASCII `BESS`. Integers are
//! little-endian. [`export`] writes a file of its own, in this order:
//!
//! | part | content |
//! |---|---|
//! | memory | work RAM (0x2000; the CGB's 0x8000), VRAM (0x2000; the CGB's 0x4000), cartridge RAM (the cartridge's size; MBC2's 512 half-bytes one per byte), OAM (0xA0), HRAM (0x7F), and on the CGB the background and object colour palettes (0x40 each) |
//! | `NAME` | `gbhost v` and the crate version |
//! | `INFO` | the ROM's title (0x0134-0x0143) and global checksum (0x014E-0x014F) |
//! | `CORE` | BESS 1.1, model `GDB ` (DMG, CPU revision B) or `CCC `/`CCD ` (CGB, CPU revision C or D), PC, AF, BC, DE, HL, SP, IME, IE, execution state, the I/O registers 0xFF00-0xFF7F, then the size and file offset of each memory above |
//! | `MBC ` | the mapper register writes that rebuild the mapper's state, for MBC1, MBC2, MBC3 and MBC5 |
//! | `XOAM` | CGB only: the RAM at 0xFEA0-0xFEFF (0x60 bytes, indexed by address - 0xFEA0) |
//! | `RTC ` | MBC3 clock: live and latched registers, then a Unix timestamp ([`export`] writes 0: the core has no wall clock; see [`export_with_timestamp`]) |
//! | `END ` | empty |
//! | footer | offset of `NAME`, `BESS` |
//!
//! The I/O registers are stored as a game would write them to reach the machine's state:
//! readable registers as they read, the sound registers as last written (NR52 as it reads,
//! NRx4 without the trigger bit, the length bits of NRx1 holding the length counters as they
//! are), wave RAM as stored, DIV as it reads, BANK (0xFF50) 0 while the boot ROM is mapped and
//! 1 after. On the CGB: KEY0 as the boot ROM wrote it (bit 2: DMG compatibility mode), KEY1
//! with the speed in bit 7, HDMA1-HDMA4 the transfer's current source and destination, HDMA5
//! as it reads, VBK, SVBK, BCPS, OCPS, OPRI, RP and FF72-FF75 as they read in CGB mode,
//! PCM12/PCM34 as 0 (outputs, not state). A CPU locked up by an illegal opcode has no BESS state: it is stored running, at
//! the illegal opcode, with IME off, so it locks up again at once. An `EI` whose delay has not
//! run out yet is stored as IME on.
//!
//! [`import`] reads any BESS file for this ROM: blocks it does not know are skipped, every
//! offset, length and size is checked against the file before use (nothing is allocated from
//! them), and memories of another size are cut or padded with zeros as the spec asks. The new
//! machine is built on the side and replaces the old one only when everything was read, so a
//! refused file changes nothing. Refused: a file without the footer, a structural error (a
//! block or memory outside the file, no `CORE` or `END`, a known block before `CORE`, a bad
//! block length, an MBC write outside 0x0000-0x7FFF and 0xA000-0xBFFF), another BESS major
//! version, a model of another family than the machine's (`G` on the DMG, `C` on the CGB: a
//! state of the other model is [`BessError::WrongModel`]), an `INFO` block naming another ROM, an
//! impossible value (IME or execution state out of range, LY above 153 with the LCD on), and a
//! state saved while the boot ROM was mapped when this machine has none mapped. A file without
//! `INFO` is taken as made for this ROM. An `XOAM` block is checked and restored on the CGB
//! (ignored on the DMG, where 0xFEA0-0xFEFF reads 0); `HUC3`, `TPP1` and `MBC7` blocks are
//! checked and ignored (nothing on these mappers to restore); an `SGB ` block is refused.
//! gbhost writes one block of its own, `GBHF` (the frame clock, [`crate::frames`]: where
//! frames end, which the LCD's last switching decides), and restores it when present. A CGB file's KEY0 picks CGB mode or DMG compatibility mode, KEY1 bit 7 the
//! speed, and its HDMA registers the transfer's addresses (no transfer starts, as the format
//! asks); memories of another size (a CGB file without the second VRAM bank) are padded. The
//! `RTC ` timestamp is ignored: the clock resumes from the saved registers at the machine's
//! time, as with battery saves; without an `RTC ` block the clock is left as it is.
//!
//! BESS keeps no timing below the register level, so an import places the machine at a
//! representative point: the PPU at the first dot where its LY and STAT mode show (see
//! [`crate::ppu::Ppu`]'s `restore_position`), the system counter at `DIV << 8`, no TIMA reload
//! pending, the frame sequencer at step 0, each sound channel as right after its trigger (the
//! length counters exact), an internal-clock serial transfer restarted with 8 bits to go, no OAM
//! DMA running (the DMA register keeps its value), no EI delay or halt bug, the MBC3 clock's
//! sub-second counter at 0. The machine keeps its clock ([`Gb::cycles`] goes on), its frame
//! counters, buttons, watchpoints, audio switch, serial log and framebuffer.
//!
//! What that costs, measured in `tests/bess.rs`: with the counter's low byte zero at the
//! export, games imported at a frame end draw every pixel of the next 120 frames as the
//! original does (Tobu Tobu Girl and Adjustris, 28 imports each). With it lost, TIMA, the
//! serial clock and the frame sequencer run up to 255 T-cycles behind: Adjustris still draws
//! identically after all 28 imports, Tobu Tobu Girl (music on the timer interrupt) after 24,
//! the other 4 showing an update one frame late or diverging later on.

use crate::Gb;
use crate::bus::Hardware;
use crate::cpu::{Cpu, CpuMode, Registers};
use crate::model::Model;
use crate::timer::Timer;

/// The BESS major and minor version written.
const VERSION: (u16, u16) = (1, 1);
/// The model written for the DMG: DMG family, DMG, CPU revision B.
const MODEL: [u8; 4] = *b"GDB ";
/// The model written for the CGB: CGB family, CGB, CPU revision C (`CCD ` for a CPU CGB D).
const MODEL_CGB: [u8; 4] = *b"CCC ";
/// Length of the `CORE` block's body.
const CORE_LEN: usize = 0xD0;
/// Length of the `INFO` block's body.
const INFO_LEN: usize = 0x12;
/// Length of the `RTC ` block's body.
const RTC_LEN: usize = 0x30;
/// Length of the `XOAM` block's body.
const XOAM_LEN: usize = 0x60;
/// Length of the `HUC3` block's body.
const HUC3_LEN: usize = 0x11;
/// Longest `MBC ` block accepted (SameBoy's limit too).
const MBC_MAX_LEN: usize = 0x1000;
/// Offset of the I/O registers in the `CORE` body.
const CORE_IO: usize = 0x18;
/// Offset of the memory sizes and offsets in the `CORE` body.
const CORE_BUFFERS: usize = 0x98;
/// The memories named in `CORE`, in order.
const BUFFER_NAMES: [&str; 7] = [
    "RAM",
    "VRAM",
    "MBC RAM",
    "OAM",
    "HRAM",
    "background palette",
    "object palette",
];
/// Earliest clock an import builds the machine at (the PPU's line start may not be negative).
const MIN_NOW: u64 = 0x1_0000;

/// Why a BESS file cannot be imported. The machine is unchanged after any of them.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BessError {
    /// The file does not end with the BESS footer.
    #[error(
        "not a BESS save state, or a truncated one: the file does not end with the 'BESS' footer"
    )]
    NoFooter,
    /// A block, a length or an offset does not fit the file, or the blocks break a rule of the
    /// format.
    #[error("damaged BESS save state: {0}")]
    Damaged(String),
    /// A BESS major version other than 1.
    #[error("BESS version {major}.{minor} is not supported (this build reads version 1.x)")]
    Version {
        /// The major version in the file.
        major: u16,
        /// The minor version in the file.
        minor: u16,
    },
    /// A save state for another Game Boy family than this machine's model.
    #[error("the save state is for a {family} (model '{model}'); this machine is a {running}")]
    WrongModel {
        /// The model identifier, printable characters only.
        model: String,
        /// The family it names.
        family: &'static str,
        /// This machine's model.
        running: crate::model::Model,
    },
    /// The `INFO` block names a ROM with another title.
    #[error("the save state was made with another ROM: '{saved}' (the loaded ROM is '{loaded}')")]
    OtherRom {
        /// The title in the save state.
        saved: String,
        /// The loaded ROM's title.
        loaded: String,
    },
    /// The `INFO` block has this ROM's title but another global checksum.
    #[error(
        "the save state was made with another version of '{title}': global checksum \
         {saved:04X} in the save state, {loaded:04X} in the loaded ROM"
    )]
    OtherRevision {
        /// The shared title.
        title: String,
        /// The checksum in the save state.
        saved: u16,
        /// The loaded ROM's checksum.
        loaded: u16,
    },
    /// A value the machine can never hold.
    #[error("BESS save state holds an impossible value: {0}")]
    Invalid(String),
    /// The state was saved while the boot ROM was mapped, and this machine has none mapped.
    #[error(
        "the save state was made while the boot ROM was running (BANK = 0), and this machine \
         has no boot ROM mapped"
    )]
    BootRom,
}

/// The machine as a standalone BESS file (see the module docs), with 0 as the clock's Unix
/// timestamp.
pub fn export(gb: &Gb) -> Vec<u8> {
    export_with_timestamp(gb, 0)
}

/// [`export`], with `unix_seconds` as the time of the save in the `RTC ` block (emulators
/// that follow the host's clock advance an MBC3 clock by the time since then when they load
/// it). Without a clock the timestamp is not written.
pub fn export_with_timestamp(gb: &Gb, unix_seconds: u64) -> Vec<u8> {
    let (cpu, hw) = gb.parts();
    let cart = &hw.cart;
    let mut out = Vec::new();
    let buffer = |out: &mut Vec<u8>, data: &[u8]| {
        let at = out.len();
        out.extend_from_slice(data);
        (data.len() as u32, at as u32)
    };
    let cgb = hw.model() == Model::Cgb;
    let (bg, obj) = hw.ppu.palettes();
    let buffers = [
        buffer(&mut out, &hw.wram[..hw.wram_len()]),
        buffer(&mut out, &hw.ppu.vram[..hw.vram_len()]),
        buffer(&mut out, cart.ram()),
        buffer(&mut out, &hw.ppu.oam),
        buffer(&mut out, &hw.hram),
        if cgb { buffer(&mut out, &bg) } else { (0, 0) },
        if cgb { buffer(&mut out, &obj) } else { (0, 0) },
    ];
    let first_block = out.len() as u32;

    let name = format!("gbhost v{}", env!("CARGO_PKG_VERSION"));
    block(&mut out, b"NAME", name.as_bytes());

    let rom = cart.rom();
    let mut info = [0u8; INFO_LEN];
    for (i, b) in info.iter_mut().enumerate() {
        let addr = if i < 0x10 {
            0x134 + i
        } else {
            0x14E + i - 0x10
        };
        *b = rom.get(addr).copied().unwrap_or(0);
    }
    block(&mut out, b"INFO", &info);

    block(&mut out, b"CORE", &core_body(cpu, hw, &buffers));

    let writes = cart.mbc_writes();
    if !writes.is_empty() {
        let body: Vec<u8> = writes
            .iter()
            .flat_map(|&(addr, v)| {
                let [lo, hi] = addr.to_le_bytes();
                [lo, hi, v]
            })
            .collect();
        block(&mut out, b"MBC ", &body);
    }

    if hw.model() == Model::Cgb {
        block(&mut out, b"XOAM", &hw.extra_oam);
    }
    if let Some(rtc) = cart.rtc() {
        let rtc = rtc.synced(hw.now);
        let mut body = [0u8; RTC_LEN];
        for (i, v) in rtc.registers().into_iter().chain(rtc.latched()).enumerate() {
            body[i * 4] = v;
        }
        body[0x28..].copy_from_slice(&unix_seconds.to_le_bytes());
        block(&mut out, b"RTC ", &body);
    }

    // gbhost's own block (others skip it): where frames end, for a gbhost that imports it.
    block(&mut out, b"GBHF", &hw.frame_clock.to_age(hw.now).to_bytes());
    block(&mut out, b"END ", &[]);
    out.extend_from_slice(&first_block.to_le_bytes());
    out.extend_from_slice(b"BESS");
    out
}

/// The `CORE` block's body; `buffers` are the memories' sizes and offsets.
fn core_body(cpu: &Cpu, hw: &Hardware, buffers: &[(u32, u32); 7]) -> [u8; CORE_LEN] {
    let mut b = [0u8; CORE_LEN];
    b[0..2].copy_from_slice(&VERSION.0.to_le_bytes());
    b[2..4].copy_from_slice(&VERSION.1.to_le_bytes());
    let cgb = hw.model() == Model::Cgb;
    let mut cgb_model = MODEL_CGB;
    if hw.revision() == crate::model::CgbRevision::D {
        cgb_model[2] = b'D';
    }
    b[4..8].copy_from_slice(if cgb { &cgb_model } else { &MODEL });
    let r = cpu.regs;
    let (pc, ime, state) = match cpu.mode() {
        // Back on the illegal opcode, which locks the CPU up again.
        CpuMode::Locked => (r.pc.wrapping_sub(1), false, 0),
        CpuMode::Running => (r.pc, cpu.ime || cpu.ei_pending, 0),
        CpuMode::Halted => (r.pc, cpu.ime || cpu.ei_pending, 1),
        CpuMode::Stopped => (r.pc, cpu.ime || cpu.ei_pending, 2),
    };
    let pair = |hi: u8, lo: u8| u16::from_be_bytes([hi, lo]);
    for (i, v) in [
        pc,
        pair(r.a, r.f),
        pair(r.b, r.c),
        pair(r.d, r.e),
        pair(r.h, r.l),
        r.sp,
    ]
    .into_iter()
    .enumerate()
    {
        b[8 + i * 2..10 + i * 2].copy_from_slice(&v.to_le_bytes());
    }
    b[0x14] = u8::from(ime);
    b[0x15] = hw.ie;
    b[0x16] = state;
    let io = &mut b[CORE_IO..CORE_IO + 0x80];
    for (i, v) in io.iter_mut().enumerate() {
        *v = hw.read_io(0xFF00 + i as u16);
    }
    io[0x10..0x40].copy_from_slice(&hw.apu.bess_registers());
    io[0x50] = u8::from(hw.boot_rom().is_none());
    if cgb {
        let c = &hw.cgb;
        io[0x4C] = c.key0;
        io[0x4D] = 0x7E | (u8::from(c.double_speed) << 7) | u8::from(c.key1_armed);
        io[0x4F] = 0xFE | hw.ppu.vram_bank();
        let (src, dst) = (hw.hdma.src, hw.hdma.dst);
        io[0x51..0x55].copy_from_slice(&[(src >> 8) as u8, src as u8, (dst >> 8) as u8, dst as u8]);
        io[0x55] = hw.hdma.read(0xFF55);
        io[0x56] = 0x3E | (c.rp & 0xC1);
        io[0x6C] = 0xFE | hw.ppu.opri();
        // BCPD and OCPD as colour RAM holds them, whether or not mode 3 hides them now.
        [io[0x69], io[0x6B]] = hw.ppu.palette_data();
        io[0x70] = 0xF8 | c.svbk;
        io[0x72] = c.ff72;
        io[0x73] = c.ff73;
        io[0x74] = c.ff74;
        io[0x75] = 0x8F | c.ff75;
        // PCM12/PCM34 are outputs (the channels as an import restarts them), not state.
        io[0x76] = 0;
        io[0x77] = 0;
    }
    for (i, &(size, offset)) in buffers.iter().enumerate() {
        let at = CORE_BUFFERS + i * 8;
        b[at..at + 4].copy_from_slice(&size.to_le_bytes());
        b[at + 4..at + 8].copy_from_slice(&offset.to_le_bytes());
    }
    b
}

/// Append a block: identifier, length, body.
fn block(out: &mut Vec<u8>, id: &[u8; 4], body: &[u8]) {
    out.extend_from_slice(id);
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(body);
}

/// Load a BESS file into `gb`, which must run the ROM the state was saved with (see the
/// module docs for what is checked and what is restored). On error `gb` is unchanged.
pub fn import(gb: &mut Gb, bytes: &[u8]) -> Result<(), BessError> {
    let parsed = parse(gb, bytes)?;
    if parsed.io[0x50] == 0 && gb.parts().1.boot_rom().is_none() {
        return Err(BessError::BootRom);
    }
    let next = build(gb, &parsed);
    *gb = next;
    Ok(())
}

/// What a file holds, checked.
struct Parsed<'a> {
    regs: Registers,
    ime: bool,
    ie: u8,
    mode: CpuMode,
    io: [u8; 0x80],
    /// Work RAM, VRAM, MBC RAM, OAM, HRAM, as slices of the file.
    ram: &'a [u8],
    vram: &'a [u8],
    mbc_ram: &'a [u8],
    oam: &'a [u8],
    hram: &'a [u8],
    /// The CGB's background and object colour palettes (empty for a DMG file).
    bg_palettes: &'a [u8],
    obj_palettes: &'a [u8],
    /// The `XOAM` block (0xFEA0-0xFEFF), restored on the CGB.
    xoam: Option<&'a [u8]>,
    /// The `MBC ` blocks' writes, in order.
    mbc_writes: Vec<(u16, u8)>,
    /// The last `RTC ` block's live and latched registers.
    rtc: Option<([u8; 5], [u8; 5])>,
    /// gbhost's `GBHF` block: the frame clock ([`crate::frames::FrameClock`]), its
    /// switch-off time as dots before the export.
    frame_clock: Option<crate::frames::FrameClock>,
}

/// A little-endian u16 at `at` (the caller checked the length).
fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

/// A little-endian u32 at `at` (the caller checked the length).
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Bytes as text for a message: printable ASCII kept, anything else as `.`.
fn printable(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&c| {
            if (0x20..0x7F).contains(&c) {
                char::from(c)
            } else {
                '.'
            }
        })
        .collect()
}

/// A ROM title for a message: up to the first NUL, trailing spaces removed.
fn title(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&c| c == 0).unwrap_or(bytes.len());
    printable(&bytes[..end]).trim_end().to_string()
}

/// Check the whole file against `gb`'s ROM and read what it holds.
fn parse<'a>(gb: &Gb, bytes: &'a [u8]) -> Result<Parsed<'a>, BessError> {
    let damaged = |msg: String| BessError::Damaged(msg);
    if bytes.len() < 8 || &bytes[bytes.len() - 4..] != b"BESS" {
        return Err(BessError::NoFooter);
    }
    let end = bytes.len() - 8;
    let first = u32_at(bytes, end) as usize;
    if first > end {
        return Err(damaged(format!(
            "the first block's offset 0x{first:X} is past the last block's end 0x{end:X}"
        )));
    }
    let mut pos = first;
    let mut parsed: Option<Parsed<'a>> = None;
    loop {
        if end - pos < 8 {
            return Err(damaged(format!(
                "no END block: the blocks reach the footer at 0x{end:X}"
            )));
        }
        let id: [u8; 4] = [bytes[pos], bytes[pos + 1], bytes[pos + 2], bytes[pos + 3]];
        let len = u32_at(bytes, pos + 4) as usize;
        let start = pos + 8;
        if len > end - start {
            return Err(damaged(format!(
                "block '{}' at 0x{pos:X} is {len} bytes long, past the footer at 0x{end:X}",
                printable(&id)
            )));
        }
        let body = &bytes[start..start + len];
        let at = pos;
        pos = start + len;
        let known_before_core = |name: &str| {
            damaged(format!(
                "the {name} block at 0x{at:X} comes before the CORE block"
            ))
        };
        let bad_len = |name: &str, want: usize| {
            damaged(format!(
                "the {name} block at 0x{at:X} is {len} bytes long, it must be {want}"
            ))
        };
        match &id {
            b"NAME" => {}
            b"INFO" => {
                if len != INFO_LEN {
                    return Err(bad_len("INFO", INFO_LEN));
                }
                check_rom(gb, body)?;
            }
            b"CORE" => {
                if parsed.is_some() {
                    return Err(damaged(format!("a second CORE block at 0x{at:X}")));
                }
                if len < CORE_LEN {
                    return Err(damaged(format!(
                        "the CORE block at 0x{at:X} is {len} bytes long, it needs {CORE_LEN}"
                    )));
                }
                parsed = Some(parse_core(bytes, body, gb.model())?);
            }
            b"XOAM" => {
                if parsed.is_none() {
                    return Err(known_before_core("XOAM"));
                }
                if len != XOAM_LEN {
                    return Err(bad_len("XOAM", XOAM_LEN));
                }
                if let Some(p) = parsed.as_mut() {
                    p.xoam = Some(body);
                }
            }
            b"MBC " => {
                let Some(p) = parsed.as_mut() else {
                    return Err(known_before_core("MBC"));
                };
                if !len.is_multiple_of(3) || len > MBC_MAX_LEN {
                    return Err(damaged(format!(
                        "the MBC block at 0x{at:X} is {len} bytes long, it must be a multiple \
                         of 3 up to {MBC_MAX_LEN}"
                    )));
                }
                for w in body.chunks_exact(3) {
                    let addr = u16::from_le_bytes([w[0], w[1]]);
                    if !(addr < 0x8000 || (0xA000..0xC000).contains(&addr)) {
                        return Err(damaged(format!(
                            "the MBC block at 0x{at:X} writes to 0x{addr:04X}, outside \
                             0x0000-0x7FFF and 0xA000-0xBFFF"
                        )));
                    }
                    p.mbc_writes.push((addr, w[2]));
                }
            }
            b"RTC " => {
                let Some(p) = parsed.as_mut() else {
                    return Err(known_before_core("RTC"));
                };
                if len != RTC_LEN {
                    return Err(bad_len("RTC", RTC_LEN));
                }
                let reg = |i: usize| body[i * 4];
                p.rtc = Some((
                    [reg(0), reg(1), reg(2), reg(3), reg(4)],
                    [reg(5), reg(6), reg(7), reg(8), reg(9)],
                ));
            }
            b"GBHF" => {
                let Some(p) = parsed.as_mut() else {
                    return Err(known_before_core("GBHF"));
                };
                let clock = crate::frames::FrameClock::from_bytes(body)
                    .filter(|c| c.age().unwrap_or(0) <= crate::frames::FrameClock::MAX_AGE)
                    .ok_or_else(|| {
                        damaged(format!("the GBHF block at 0x{at:X} is no frame clock"))
                    })?;
                p.frame_clock = Some(clock);
            }
            b"SGB " => {
                if parsed.is_none() {
                    return Err(known_before_core("SGB"));
                }
                return Err(damaged(format!(
                    "an SGB block at 0x{at:X} (Super Game Boy data) in a save state for a DMG"
                )));
            }
            b"HUC3" | b"TPP1" | b"MBC7" => {
                if parsed.is_none() {
                    return Err(known_before_core(&printable(&id)));
                }
                if &id == b"HUC3" && len != HUC3_LEN {
                    return Err(bad_len("HUC3", HUC3_LEN));
                }
                // Mappers this core does not have: nothing to restore.
            }
            b"END " => {
                if len != 0 {
                    return Err(bad_len("END", 0));
                }
                return parsed.ok_or_else(|| {
                    damaged(format!(
                        "the END block at 0x{at:X} comes before any CORE block"
                    ))
                });
            }
            _ => {}
        }
    }
}

/// Refuse an `INFO` block that names another ROM than `gb`'s.
fn check_rom(gb: &Gb, info: &[u8]) -> Result<(), BessError> {
    let rom = gb.cartridge().rom();
    let ours = |range: std::ops::Range<usize>| rom.get(range).unwrap_or(&[]);
    let (saved_title, saved_sum) = info.split_at(0x10);
    let loaded_title = ours(0x134..0x144);
    if saved_title != loaded_title {
        return Err(BessError::OtherRom {
            saved: title(saved_title),
            loaded: title(loaded_title),
        });
    }
    let loaded_sum = ours(0x14E..0x150);
    if saved_sum != loaded_sum {
        let sum = |b: &[u8]| match b {
            [hi, lo] => u16::from_be_bytes([*hi, *lo]),
            _ => 0,
        };
        return Err(BessError::OtherRevision {
            title: title(loaded_title),
            saved: sum(saved_sum),
            loaded: sum(loaded_sum),
        });
    }
    Ok(())
}

/// Read a `CORE` body (at least [`CORE_LEN`] bytes) of the file `file`.
fn parse_core<'a>(file: &'a [u8], b: &[u8], running: Model) -> Result<Parsed<'a>, BessError> {
    let (major, minor) = (u16_at(b, 0), u16_at(b, 2));
    if major != 1 {
        return Err(BessError::Version { major, minor });
    }
    let model = &b[4..8];
    let (family, ok) = match model[0] {
        b'G' => ("Game Boy (DMG family)", running == Model::Dmg),
        b'S' => ("Super Game Boy", false),
        b'C' => ("Game Boy Color or Game Boy Advance", running == Model::Cgb),
        _ => ("model this emulator does not know", false),
    };
    if !ok {
        return Err(BessError::WrongModel {
            model: printable(model),
            family,
            running,
        });
    }
    let word = |i: usize| u16_at(b, 8 + i * 2).to_be_bytes();
    let pc = u16_at(b, 8);
    let [a, f] = word(1);
    let [bb, c] = word(2);
    let [d, e] = word(3);
    let [h, l] = word(4);
    let sp = u16_at(b, 0x12);
    let ime = match b[0x14] {
        0 => false,
        1 => true,
        v => return Err(BessError::Invalid(format!("IME is {v}, not 0 or 1"))),
    };
    let mode = match b[0x16] {
        0 => CpuMode::Running,
        1 => CpuMode::Halted,
        2 => CpuMode::Stopped,
        v => {
            return Err(BessError::Invalid(format!(
                "execution state {v} (0 running, 1 halted, 2 stopped)"
            )));
        }
    };
    let mut io = [0u8; 0x80];
    io.copy_from_slice(&b[CORE_IO..CORE_IO + 0x80]);
    let ly = io[0x44];
    if io[0x40] & 0x80 != 0 && ly > 153 {
        return Err(BessError::Invalid(format!(
            "LY is {ly} with the LCD on (lines are 0-153)"
        )));
    }
    let mut buffers: [&'a [u8]; 7] = [&[]; 7];
    for (i, slot) in buffers.iter_mut().enumerate() {
        let at = CORE_BUFFERS + i * 8;
        let (size, offset) = (u32_at(b, at) as usize, u32_at(b, at + 4) as usize);
        *slot = offset
            .checked_add(size)
            .and_then(|end| file.get(offset..end))
            .ok_or_else(|| {
                BessError::Damaged(format!(
                    "the {} (0x{size:X} bytes at 0x{offset:X}) lies outside the file \
                     (0x{:X} bytes)",
                    BUFFER_NAMES[i],
                    file.len()
                ))
            })?;
    }
    let [ram, vram, mbc_ram, oam, hram, bg_palettes, obj_palettes] = buffers;
    Ok(Parsed {
        regs: Registers {
            a,
            f: f & 0xF0,
            b: bb,
            c,
            d,
            e,
            h,
            l,
            sp,
            pc,
        },
        ime,
        ie: b[0x15],
        mode,
        io,
        ram,
        vram,
        mbc_ram,
        oam,
        hram,
        bg_palettes,
        obj_palettes,
        xoam: None,
        mbc_writes: Vec::new(),
        rtc: None,
        frame_clock: None,
    })
}

/// Copy `src` into `dst`: extra bytes dropped, missing ones zero.
fn fill(dst: &mut [u8], src: &[u8]) {
    let n = src.len().min(dst.len());
    dst[..n].copy_from_slice(&src[..n]);
    dst[n..].fill(0);
}

/// The CGB's registers and palettes of `p` (see the module docs).
fn restore_cgb(hw: &mut Hardware, p: &Parsed<'_>) {
    let io = &p.io;
    hw.cgb.key0 = io[0x4C];
    hw.cgb.key1_armed = io[0x4D] & 1 != 0;
    hw.cgb.svbk = io[0x70] & 7;
    hw.cgb.rp = io[0x56] & 0xC1;
    hw.cgb.ff72 = io[0x72];
    hw.cgb.ff73 = io[0x73];
    hw.cgb.ff74 = io[0x74];
    hw.cgb.ff75 = io[0x75] & 0x70;
    // While the boot ROM runs (BANK 0) the CGB is in CGB mode whatever KEY0 says.
    hw.set_cgb_mode(io[0x50] == 0 || io[0x4C] & 0x04 == 0);
    hw.set_speed(io[0x4D] & 0x80 != 0 && hw.cgb_mode());
    let mut bg = [0u8; 64];
    let mut obj = [0u8; 64];
    fill(&mut bg, p.bg_palettes);
    fill(&mut obj, p.obj_palettes);
    hw.ppu.set_palettes(&bg, &obj);
    hw.ppu.set_palette_specs(io[0x68], io[0x6A]);
    hw.ppu.set_opri(io[0x6C]);
    hw.ppu.set_vram_bank(io[0x4F]);
    hw.hdma.src = u16::from_be_bytes([io[0x51], io[0x52] & 0xF0]);
    hw.hdma.dst = u16::from_be_bytes([io[0x53], io[0x54] & 0xF0]);
    hw.hdma.blocks = io[0x55] & 0x7F;
    hw.hdma.hblank = io[0x55] & 0x80 == 0;
    if let Some(xoam) = p.xoam {
        fill(&mut hw.extra_oam, xoam);
    }
    hw.update_banks();
}

/// The machine `p` describes, built beside `gb` (whose host settings it keeps).
fn build(gb: &Gb, p: &Parsed<'_>) -> Gb {
    let (_, old) = gb.parts();
    // Late enough to count the frame clock's switch-off age back from.
    let age = p.frame_clock.and_then(|c| c.age()).unwrap_or(0);
    let now = old.now.max(MIN_NOW).max(age);
    let io = &p.io;

    let mut cart = old.cart.clone();
    cart.reset_mapper();
    for &(addr, v) in &p.mbc_writes {
        if addr < 0x8000 {
            cart.write_rom(addr, v, now);
        } else {
            cart.write_ram(addr, v, now);
        }
    }
    if let Some((live, latched)) = p.rtc {
        cart.restore_rtc(live, latched, now);
    }
    cart.fill_ram(p.mbc_ram);

    let counter = u16::from(io[0x04]) << 8;
    let mut timer = Timer::new(now, counter);
    timer.write_tima(now, io[0x05]);
    timer.write_tma(now, io[0x06]);
    timer.write_tac(now, io[0x07]);

    let mut apu = old.apu.clone();
    let mut sound = [0u8; 0x30];
    sound.copy_from_slice(&io[0x10..0x40]);
    apu.restore_registers(&sound, now);

    let mut ppu = old.ppu.clone();
    fill(&mut ppu.vram[..old.vram_len()], p.vram);
    fill(&mut ppu.oam, p.oam);
    ppu.lcdc = io[0x40];
    ppu.scy = io[0x42];
    ppu.scx = io[0x43];
    ppu.lyc = io[0x45];
    ppu.bgp = io[0x47];
    ppu.obp0 = io[0x48];
    ppu.obp1 = io[0x49];
    ppu.wy = io[0x4A];
    ppu.wx = io[0x4B];
    ppu.restore_position(io[0x41], io[0x44], now);

    let mut hw = Hardware::with_model(old.model(), cart, ppu, timer, apu, now);
    hw.set_revision(old.revision());
    let wram_len = hw.wram_len();
    fill(&mut hw.wram[..wram_len], p.ram);
    if old.model() == Model::Cgb {
        restore_cgb(&mut hw, p);
    }
    fill(&mut hw.hram, p.hram);
    hw.serial = old.serial.clone();
    hw.serial.restore(io[0x01], io[0x02], now, counter);
    hw.joypad = old.joypad.clone();
    hw.joypad.restore_select(io[0x00]);
    hw.set_dma_register(io[0x46]);
    if io[0x50] == 0
        && let Some(image) = old.boot_rom()
    {
        hw.map_boot_rom(image);
    }
    hw.watch = old.watch.clone();
    hw.p1_reads = old.p1_reads;
    hw.if_ = io[0x0F] & 0x1F;
    hw.ie = p.ie;
    hw.resync();
    hw.frame_clock = p.frame_clock.unwrap_or_default().from_age(hw.now);
    gb.with_parts(Cpu::restored(p.regs, p.ime, p.mode), hw)
}
