//! The CGB's VRAM DMA (Pan Docs "LCD VRAM DMA Transfers"): HDMA1-HDMA5 (0xFF51-0xFF55), the
//! registers; the copying and the CPU's stall are the bus's (`bus.rs`).
//!
//! - HDMA1/HDMA2 set the source (its low 4 bits ignored), HDMA3/HDMA4 the destination in VRAM
//!   (bits 4-12 address VRAM); both advance as bytes are copied, and all four read 0xFF.
//! - Writing HDMA5 with bit 7 clear starts a general-purpose DMA of `(value & 0x7F) + 1`
//!   blocks of 16 bytes, all at once; with bit 7 set an HBlank DMA, one block at the start of
//!   each HBlank of lines 0-143 (at once if the PPU is in HBlank, or the LCD is off, when the
//!   write lands). Writing it with bit 7 clear while an HBlank DMA runs stops that instead.
//! - The DMA takes the bus only after an opcode fetch: a copy asked for waits (`Due`) for
//!   the CPU's next one, which still reads the old bytes, and the CPU stalls before that
//!   instruction runs (Gambatte's `dma/hdma_pc_7ffe`, `late_gdma_pc_7ffe_1`; `docs/timing.md`).
//! - HDMA5 reads the blocks left minus one in bits 0-6, bit 7 clear while an HBlank DMA runs;
//!   0xFF once done; after a stop, bit 7 set over the length bits of the stopping write (the
//!   CGB's dumps of gbc-hw-tests `hdma_start`, `hdma_start_3`: a stop with 0x00 reads 0x80,
//!   with 0x0F 0x8F, whatever was left; Pan Docs and SameBoy keep the blocks left instead).
//! - Switching the LCD off while an HBlank DMA runs and the PPU is not in HBlank copies a
//!   block: the PPU drops into mode 0 (`hdma_start_3`; SameBoy does the same).
//! - A transfer ends early when the destination passes 0xFFFF (Pan Docs: "If the transfer's
//!   destination address overflows, the transfer stops prematurely"): the counter keeps
//!   HDMA3's top 3 bits, so one from 0x9FF0 wraps to VRAM's start and goes on, one from
//!   0xFFF0 stops (Gambatte `dma/dma_dst_wrap_1`, `dma_dst_wrap_2`, `dma_src_wrap`).
//! - A CPU asleep (HALT, the speed switch) samples the HBlank request as it sleeps and as it
//!   wakes (`Sleep`): HBlanks inside the sleep copy nothing; a block due at HALT follows the
//!   wake-up's fetch (`Due::Woken`), and one arriving while a block is copied is lost.
//!
//! Outside CGB mode the registers read 0xFF and take no writes.

/// What a write to HDMA5 asks of the bus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// Nothing to copy now.
    Nothing,
    /// A general-purpose DMA: every block now.
    General,
    /// An HBlank DMA: its first block now if the PPU is in HBlank (or the LCD off).
    HBlank,
}

/// What VRAM DMA copies after the CPU's next opcode fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Due {
    /// Nothing.
    Nothing,
    /// An HBlank DMA's block.
    Block,
    /// A general-purpose DMA: every block.
    General,
    /// An HBlank DMA's block requested before the CPU's HALT, copied after the wake-up's
    /// fetch: its stall is an M-cycle shorter (the first is the wake-up's), and that fetch
    /// leaves PC where it is (the byte after HALT runs twice: first the byte HALT read, then
    /// what the fetch reads again).
    Woken,
}

/// Where the CPU's HALT began: the HBlank DMA's request line is sampled as the CPU sleeps and
/// as it wakes, and only a rise between the two asks for a block (HBlanks that start and end
/// in the sleep are lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sleep {
    /// The CPU is awake.
    Awake,
    /// HALT began outside an HBlank DMA's HBlank: waking in one copies its block.
    Low,
    /// HALT began in an HBlank DMA's HBlank: waking in an HBlank copies nothing.
    High,
}

/// The VRAM DMA registers and the transfer under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hdma {
    /// The next source address.
    pub(crate) src: u16,
    /// The next destination address (as written: bits 4-12 address VRAM, all count).
    pub(crate) dst: u16,
    /// Blocks left minus one (HDMA5 bits 0-6).
    pub(crate) blocks: u8,
    /// An HBlank DMA runs.
    pub(crate) hblank: bool,
    /// Where the CPU's HALT began, for the HBlank DMA's block at the wake-up.
    pub(crate) sleep: Sleep,
    /// When the CPU went to sleep (while `sleep` is not `Awake`).
    pub(crate) sleep_at: u64,
    /// The last block's copy ends then: an HBlank request up to then is lost.
    pub(crate) busy_until: u64,
    /// A copy waits for the CPU's next opcode fetch (the DMA takes the bus only after one).
    pub(crate) due: Due,
    /// The first time an opcode fetch ending then (or later) starts the copy `due` names.
    pub(crate) due_at: u64,
}

impl Hdma {
    /// Registers after power-on: HDMA5 reads 0xFF.
    pub(crate) fn new() -> Hdma {
        Hdma {
            src: 0,
            dst: 0,
            blocks: 0x7F,
            hblank: false,
            sleep: Sleep::Awake,
            sleep_at: 0,
            busy_until: 0,
            due: Due::Nothing,
            due_at: 0,
        }
    }

    /// Read HDMA5 (the others read 0xFF).
    pub(crate) fn read(&self, addr: u16) -> u8 {
        match addr {
            0xFF55 => {
                if self.hblank {
                    self.blocks & 0x7F
                } else {
                    0x80 | self.blocks
                }
            }
            _ => 0xFF,
        }
    }

    /// Write HDMA1-HDMA5; what the bus must start.
    pub(crate) fn write(&mut self, addr: u16, v: u8) -> Start {
        match addr {
            0xFF51 => self.src = (self.src & 0x00F0) | u16::from(v) << 8,
            0xFF52 => self.src = (self.src & 0xFF00) | u16::from(v & 0xF0),
            0xFF53 => self.dst = (self.dst & 0x00F0) | u16::from(v) << 8,
            0xFF54 => self.dst = (self.dst & 0xFF00) | u16::from(v & 0xF0),
            0xFF55 => {
                self.blocks = v & 0x7F;
                if v & 0x80 == 0 && self.hblank {
                    // Stopped: bit 7 reads 1 over the length just written.
                    self.hblank = false;
                    return Start::Nothing;
                }
                if v & 0x80 == 0 {
                    return Start::General;
                }
                self.hblank = true;
                return Start::HBlank;
            }
            _ => {}
        }
        Start::Nothing
    }

    /// One block was copied (the addresses already advanced): the transfer ends after its
    /// last block, or when the destination passed 0xFFFF.
    pub(crate) fn block_done(&mut self, overflow: bool) {
        if self.blocks == 0 || overflow {
            self.blocks = 0x7F;
            self.hblank = false;
        } else {
            self.blocks -= 1;
        }
    }

    /// Append the registers to the state image.
    pub(crate) fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        w.u16(self.src);
        w.u16(self.dst);
        w.u8(self.blocks);
        w.bool(self.hblank);
        w.u8(self.sleep as u8);
        w.u64(self.sleep_at);
        w.u64(self.busy_until);
        w.u8(match self.due {
            Due::Nothing => 0,
            Due::Block => 1,
            Due::General => 2,
            Due::Woken => 3,
        });
        w.u64(self.due_at);
    }

    /// Read the registers from the state image.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
    ) -> Result<(), crate::state::StateError> {
        self.src = r.u16()? & 0xFFF0;
        self.dst = r.u16()? & 0xFFF0;
        self.blocks = r.below(0x80, "HDMA5 blocks")?;
        self.hblank = r.bool()?;
        self.sleep = match r.below(3, "VRAM DMA sleep")? {
            0 => Sleep::Awake,
            1 => Sleep::Low,
            _ => Sleep::High,
        };
        self.sleep_at = r.u64()?;
        self.busy_until = r.u64()?;
        self.due = match r.below(4, "VRAM DMA due")? {
            0 => Due::Nothing,
            1 => Due::Block,
            2 => Due::General,
            _ => Due::Woken,
        };
        self.due_at = r.u64()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_reads_back_the_written_length() {
        let mut h = Hdma::new();
        assert_eq!(h.write(0xFF55, 0x93), Start::HBlank);
        assert_eq!(h.read(0xFF55), 0x13);
        h.block_done(false);
        assert_eq!(h.read(0xFF55), 0x12);
        assert_eq!(h.write(0xFF55, 0x0F), Start::Nothing);
        assert_eq!(h.read(0xFF55), 0x8F);
        assert_eq!(
            h.write(0xFF55, 0x00),
            Start::General,
            "no HBlank DMA to stop now"
        );
    }
}
