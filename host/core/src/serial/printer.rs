//! The Game Boy Printer at the other end of the cable ([`Printer`]), as Pan Docs "Game Boy
//! Printer" describes it: packets of magic $88 $33, a command, a compression flag, a data
//! length, the data and a checksum, answered $81 (alive) and a status byte; an 8 KiB buffer
//! of tiles (20 to a row) that command 2 prints, with the packet's palette, onto the paper.
//! The printer is clocked by the Game Boy (it is always the external-clock side): each edge
//! shifts one bit each way, and a byte is taken when its eighth bit is in.
//!
//! A packet's status reply is the status as the packet found it, with that packet's checksum
//! error (Pan Docs' example: a data packet answered $81 $00, the status query after it
//! $81 $08).
//!
//! Not from Pan Docs, chosen here (no hardware measurement at hand): printing takes 100 ms
//! per 16-pixel band of the image, the status showing "printing" until then; a packet whose
//! bytes stop for more than 100 ms is dropped (Pan Docs' timeout), the buffer kept.

use crate::state::{Reader, StateError, Writer};

/// The buffer: 8 KiB, 20 tiles wide (Pan Docs: at most 160 × 200 pixels between prints).
const BUFFER: usize = 0x2000;
/// Bytes of one 16-pixel band of 20 tiles (two tile rows).
const BAND: usize = 0x280;
/// Dots per 100 ms at normal speed (4,194,304 Hz).
const MS_100: u64 = 419_430;
/// The paper's width in pixels.
pub const PAPER_WIDTH: usize = 160;
/// Most printed rows kept until the host takes them.
const MAX_PAPER_ROWS: usize = 4096;

/// Status bits (Pan Docs "Status byte").
mod status {
    /// The checksum did not match.
    pub const CHECKSUM_ERROR: u8 = 0x01;
    /// Printing.
    pub const PRINTING: u8 = 0x02;
    /// The buffer is full.
    pub const FULL: u8 = 0x04;
    /// Data waits to be printed.
    pub const UNPROCESSED: u8 = 0x08;
}

/// Where the packet being received is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Magic1,
    Magic2,
    Command,
    Compression,
    LengthLow,
    LengthHigh,
    Data,
    ChecksumLow,
    ChecksumHigh,
    Alive,
    Status,
}

/// What was printed and not yet taken: rows of [`PAPER_WIDTH`] shades (0 white … 3 black).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paper {
    /// The pixels, row after row.
    pub shades: Vec<u8>,
}

impl Paper {
    /// Rows printed.
    pub fn rows(&self) -> usize {
        self.shades.len() / PAPER_WIDTH
    }
}

/// The Game Boy Printer.
#[derive(Clone, Debug)]
pub struct Printer {
    /// The byte being shifted in and the reply being shifted out.
    shift_in: u8,
    shift_out: u8,
    bits: u8,
    /// The reply to the next byte.
    reply: u8,
    stage: Stage,
    command: u8,
    compressed: bool,
    length: u16,
    data: Vec<u8>,
    /// The sum of the packet's bytes so far, and the checksum received.
    sum: u16,
    checksum: u16,
    /// The tile buffer and how much of it is filled.
    buffer: Vec<u8>,
    filled: usize,
    /// The last data packet was empty (Pan Docs: one must come before command 2).
    empty_data_last: bool,
    status: u8,
    /// When the print in progress ends (dots), if one is.
    printing_until: Option<u64>,
    /// When the last byte came.
    last_byte: u64,
    /// Printed and not yet taken.
    paper: Paper,
}

impl Default for Printer {
    fn default() -> Self {
        Printer {
            shift_in: 0,
            shift_out: 0,
            bits: 0,
            reply: 0,
            stage: Stage::Magic1,
            command: 0,
            compressed: false,
            length: 0,
            data: Vec::new(),
            sum: 0,
            checksum: 0,
            buffer: vec![0; BUFFER],
            filled: 0,
            empty_data_last: false,
            status: 0,
            printing_until: None,
            last_byte: 0,
            paper: Paper::default(),
        }
    }
}

impl Printer {
    /// A clock edge from the Game Boy at `time`: it sent `bit`; returns the printer's bit.
    pub(crate) fn clock(&mut self, time: u64, bit: bool) -> bool {
        if self.bits == 0 {
            self.shift_out = self.reply;
        }
        let out = self.shift_out & 0x80 != 0;
        self.shift_out <<= 1;
        self.shift_in = (self.shift_in << 1) | u8::from(bit);
        self.bits += 1;
        if self.bits == 8 {
            self.bits = 0;
            let byte = self.shift_in;
            self.reply = self.take(time, byte);
        }
        out
    }

    /// Take a whole byte at `time`; the reply to the next one.
    fn take(&mut self, time: u64, byte: u8) -> u8 {
        if self.stage != Stage::Magic1 && time.saturating_sub(self.last_byte) > MS_100 {
            self.stage = Stage::Magic1;
        }
        self.last_byte = time;
        if self.printing_until.is_some_and(|end| time >= end) {
            self.printing_until = None;
            self.status &= !status::PRINTING;
        }
        let add = |sum: &mut u16| *sum = sum.wrapping_add(u16::from(byte));
        match self.stage {
            Stage::Magic1 => {
                if byte == 0x88 {
                    self.stage = Stage::Magic2;
                }
            }
            Stage::Magic2 => {
                self.stage = if byte == 0x33 {
                    Stage::Command
                } else {
                    Stage::Magic1
                };
            }
            Stage::Command => {
                self.command = byte;
                self.sum = u16::from(byte);
                self.data.clear();
                self.stage = Stage::Compression;
            }
            Stage::Compression => {
                self.compressed = byte & 1 != 0;
                add(&mut self.sum);
                self.stage = Stage::LengthLow;
            }
            Stage::LengthLow => {
                self.length = u16::from(byte);
                add(&mut self.sum);
                self.stage = Stage::LengthHigh;
            }
            Stage::LengthHigh => {
                self.length |= u16::from(byte) << 8;
                add(&mut self.sum);
                self.stage = if self.length == 0 {
                    Stage::ChecksumLow
                } else {
                    Stage::Data
                };
            }
            Stage::Data => {
                add(&mut self.sum);
                self.data.push(byte);
                if self.data.len() >= usize::from(self.length) {
                    self.stage = Stage::ChecksumLow;
                }
            }
            Stage::ChecksumLow => {
                self.checksum = u16::from(byte);
                self.stage = Stage::ChecksumHigh;
            }
            Stage::ChecksumHigh => {
                self.checksum |= u16::from(byte) << 8;
                self.stage = Stage::Alive;
                return 0x81;
            }
            Stage::Alive => {
                self.stage = Stage::Status;
                // The status as the packet found it (Pan Docs' example: a data packet is
                // answered $00, the next status query $08), with this packet's checksum.
                let bad = if self.sum == self.checksum {
                    0
                } else {
                    status::CHECKSUM_ERROR
                };
                let reply = (self.status & !status::CHECKSUM_ERROR) | bad;
                self.finish_packet(time);
                return reply;
            }
            Stage::Status => {
                self.stage = Stage::Magic1;
            }
        }
        0x00
    }

    /// The whole packet is in: act on its command.
    fn finish_packet(&mut self, time: u64) {
        if self.sum != self.checksum {
            self.status |= status::CHECKSUM_ERROR;
            return;
        }
        self.status &= !status::CHECKSUM_ERROR;
        match self.command {
            0x01 => {
                self.filled = 0;
                self.empty_data_last = false;
                self.status = 0;
                self.printing_until = None;
            }
            0x04 => {
                let data = std::mem::take(&mut self.data);
                if data.is_empty() {
                    self.empty_data_last = true;
                } else {
                    self.empty_data_last = false;
                    let bytes = if self.compressed {
                        decompress(&data)
                    } else {
                        data
                    };
                    for b in bytes {
                        if self.filled < BUFFER {
                            self.buffer[self.filled] = b;
                            self.filled += 1;
                        }
                    }
                    self.status |= status::UNPROCESSED;
                    if self.filled >= BUFFER {
                        self.status |= status::FULL;
                    }
                }
            }
            0x02 if self.data.len() == 4 && self.empty_data_last => {
                let palette = self.data[2];
                self.print(palette);
                let bands = self.filled.div_ceil(BAND).max(1) as u64;
                self.printing_until = Some(time + bands * MS_100);
                self.status =
                    (self.status & !status::UNPROCESSED) | status::PRINTING | status::FULL;
                self.filled = 0;
                self.empty_data_last = false;
            }
            _ => {}
        }
    }

    /// Put the buffer on the paper: 20 tiles to a row of tiles, shades through `palette`.
    fn print(&mut self, palette: u8) {
        let tile_rows = self.filled / (20 * 16);
        for tile_row in 0..tile_rows {
            for y in 0..8 {
                if self.paper.rows() >= MAX_PAPER_ROWS {
                    return;
                }
                for tile in 0..20 {
                    let at = (tile_row * 20 + tile) * 16 + y * 2;
                    let (lo, hi) = (self.buffer[at], self.buffer[at + 1]);
                    for x in 0..8 {
                        let bit = 7 - x;
                        let colour = ((hi >> bit) & 1) << 1 | ((lo >> bit) & 1);
                        self.paper.shades.push((palette >> (colour * 2)) & 3);
                    }
                }
            }
        }
    }

    /// The bytes a game sends for one packet: the magic, `command`, no compression, the
    /// length, `data`, the checksum, and the two $00 bytes that clock in the replies ($81,
    /// then the status).
    pub fn packet(command: u8, data: &[u8]) -> Vec<u8> {
        let len = u16::try_from(data.len()).unwrap_or(u16::MAX);
        let mut body = vec![command, 0, len as u8, (len >> 8) as u8];
        body.extend_from_slice(&data[..usize::from(len)]);
        let sum = body.iter().fold(0u16, |s, b| s.wrapping_add(u16::from(*b)));
        let mut out = vec![0x88, 0x33];
        out.extend(body);
        out.extend([sum as u8, (sum >> 8) as u8, 0, 0]);
        out
    }

    /// Take what was printed since the last call (the host saves it as a picture).
    pub fn take_paper(&mut self) -> Paper {
        std::mem::take(&mut self.paper)
    }

    /// The status byte as the next status reply would give it.
    pub fn status(&self) -> u8 {
        self.status
    }

    /// The printer's state image (not the paper, an output): a host that keeps a machine
    /// with a printer keeps this beside the machine's image, so both rewind together.
    pub fn image(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.save_state(&mut Writer::new(&mut out, crate::state::VERSION));
        out
    }

    /// A printer from [`Printer::image`]'s bytes (its paper empty).
    pub fn from_image(image: &[u8]) -> Result<Printer, StateError> {
        let mut r = Reader::new(image);
        let p = Printer::load_state(&mut r)?;
        if !r.rest().is_empty() {
            return Err(StateError::Length);
        }
        Ok(p)
    }

    /// Append the printer's state (not the paper, an output) to an image.
    fn save_state(&self, w: &mut Writer<'_>) {
        let stage = self.stage as u8;
        w.bytes(&[self.shift_in, self.shift_out, self.bits, self.reply, stage]);
        w.bytes(&[self.command, u8::from(self.compressed)]);
        w.u16(self.length);
        w.u32(self.data.len() as u32);
        w.bytes(&self.data);
        w.u16(self.sum);
        w.u16(self.checksum);
        w.bytes(&self.buffer);
        w.u32(self.filled as u32);
        w.bool(self.empty_data_last);
        w.u8(self.status);
        w.u64(self.printing_until.unwrap_or(u64::MAX));
        w.u64(self.last_byte);
    }

    /// Read the printer's state from an image.
    fn load_state(r: &mut Reader<'_>) -> Result<Printer, StateError> {
        const STAGES: [Stage; 11] = [
            Stage::Magic1,
            Stage::Magic2,
            Stage::Command,
            Stage::Compression,
            Stage::LengthLow,
            Stage::LengthHigh,
            Stage::Data,
            Stage::ChecksumLow,
            Stage::ChecksumHigh,
            Stage::Alive,
            Stage::Status,
        ];
        let mut p = Printer {
            shift_in: r.u8()?,
            shift_out: r.u8()?,
            bits: r.below(8, "printer bit count")?,
            reply: r.u8()?,
            stage: STAGES[usize::from(r.below(11, "printer stage")?)],
            command: r.u8()?,
            compressed: r.bool()?,
            length: r.u16()?,
            ..Printer::default()
        };
        let n = r.u32()? as usize;
        if n > usize::from(u16::MAX) {
            return Err(StateError::Invalid("printer packet length"));
        }
        p.data = r.take(n)?.to_vec();
        p.sum = r.u16()?;
        p.checksum = r.u16()?;
        r.bytes(&mut p.buffer)?;
        p.filled = r.u32()? as usize;
        if p.filled > BUFFER {
            return Err(StateError::Invalid("printer buffer fill"));
        }
        p.empty_data_last = r.bool()?;
        p.status = r.u8()?;
        p.printing_until = Some(r.u64()?).filter(|t| *t != u64::MAX);
        p.last_byte = r.u64()?;
        Ok(p)
    }
}

/// The printer's run-length coding: a byte with bit 7 set repeats the next byte (its low 7
/// bits + 2) times; a byte with bit 7 clear is followed by (it + 1) bytes as they are.
fn decompress(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() && out.len() < BUFFER {
        let b = data[i];
        i += 1;
        if b & 0x80 != 0 {
            if let Some(&v) = data.get(i) {
                out.extend(std::iter::repeat_n(v, usize::from(b & 0x7F) + 2));
                i += 1;
            }
        } else {
            let n = usize::from(b) + 1;
            let end = (i + n).min(data.len());
            out.extend_from_slice(&data[i..end]);
            i = end;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Send `bytes` a bit at a time, 4,096 dots apart; the replies.
    fn send(p: &mut Printer, t: &mut u64, bytes: &[u8]) -> Vec<u8> {
        bytes
            .iter()
            .map(|&b| {
                let mut reply = 0u8;
                for i in (0..8).rev() {
                    *t += 512;
                    reply = (reply << 1) | u8::from(p.clock(*t, b >> i & 1 != 0));
                }
                reply
            })
            .collect()
    }

    fn last_two(replies: &[u8]) -> [u8; 2] {
        [replies[replies.len() - 2], replies[replies.len() - 1]]
    }

    #[test]
    fn a_print_follows_pan_docs_example_and_puts_the_tiles_on_paper() {
        let mut p = Printer::default();
        let mut t = 0;
        assert_eq!(
            last_two(&send(&mut p, &mut t, &Printer::packet(1, &[]))),
            [0x81, 0]
        );
        // One band: 20 × 2 tiles; tile n's rows all $FF/$00 when n is even (colour 1), else
        // $00/$FF (colour 2).
        let band: Vec<u8> = (0..BAND)
            .map(|i| {
                let tile = i / 16;
                let hi = i % 2 == 1;
                if (tile % 2 == 0) != hi { 0xFF } else { 0x00 }
            })
            .collect();
        assert_eq!(
            last_two(&send(&mut p, &mut t, &Printer::packet(4, &band))),
            [0x81, 0]
        );
        assert_eq!(
            last_two(&send(&mut p, &mut t, &Printer::packet(0x0F, &[]))),
            [0x81, status::UNPROCESSED]
        );
        send(&mut p, &mut t, &Printer::packet(4, &[]));
        // Palette $E4: colour 1 → shade 1, colour 2 → shade 2.
        let replies = send(&mut p, &mut t, &Printer::packet(2, &[1, 0x13, 0xE4, 0x40]));
        assert_eq!(last_two(&replies)[0], 0x81);
        let st = last_two(&send(&mut p, &mut t, &Printer::packet(0x0F, &[])))[1];
        assert_ne!(st & status::PRINTING, 0, "printing");
        t += MS_100;
        let st = last_two(&send(&mut p, &mut t, &Printer::packet(0x0F, &[])))[1];
        assert_eq!(st & status::PRINTING, 0, "done");
        let paper = p.take_paper();
        assert_eq!(paper.rows(), 16);
        for row in 0..16 {
            for x in 0..PAPER_WIDTH {
                let want = if (x / 8) % 2 == 0 { 1 } else { 2 };
                assert_eq!(paper.shades[row * PAPER_WIDTH + x], want, "row {row} x {x}");
            }
        }
    }

    #[test]
    fn a_bad_checksum_is_reported_and_changes_nothing() {
        let mut p = Printer::default();
        let mut t = 0;
        let mut bad = Printer::packet(4, &[1, 2, 3]);
        let n = bad.len();
        bad[n - 4] ^= 1;
        assert_eq!(
            last_two(&send(&mut p, &mut t, &bad)),
            [0x81, status::CHECKSUM_ERROR]
        );
        assert_eq!(p.filled, 0);
    }

    #[test]
    fn compressed_data_is_unpacked() {
        // A run of 5 × $AA, then 3 literal bytes.
        assert_eq!(
            decompress(&[0x83, 0xAA, 0x02, 1, 2, 3]),
            [0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 1, 2, 3]
        );
    }

    #[test]
    fn the_printer_round_trips_through_the_image() {
        let mut p = Printer::default();
        let mut t = 0;
        send(&mut p, &mut t, &Printer::packet(4, &[9; 40])[..10]);
        let out = p.image();
        let q = Printer::from_image(&out).expect("loads");
        assert_eq!(out, q.image());
        assert_eq!(q.stage, p.stage);
        assert!(Printer::from_image(&out[..out.len() - 1]).is_err());
    }
}
