//! The assembler proper: two passes over the parsed lines (addresses, then bytes), sections,
//! labels and constants, and the image they make.

use std::collections::{BTreeMap, HashMap};

use super::parse::{DataItem, Expr, Line, Parser, SectionKind, Stmt};

/// An assembly error, tied to a source line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct AsmError {
    /// 1-based source line of the error; 0 for errors not tied to a line (such as bad
    /// [`RomBuilder`](super::RomBuilder) options).
    pub line: usize,
    /// What went wrong, without the line number.
    pub message: String,
}

impl AsmError {
    pub(super) fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}

/// The result of assembling: the bytes and the value of every label and constant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembly {
    /// The output bytes (a flat image from the origin, or a whole ROM image).
    pub bytes: Vec<u8>,
    /// Labels (by full name, locals as `Global.local`) and constants, with their values.
    pub symbols: BTreeMap<String, i64>,
}

impl Assembly {
    /// The value of a label or constant as a 16-bit address, if it exists and fits.
    pub fn address(&self, name: &str) -> Option<u16> {
        self.symbols.get(name).and_then(|v| u16::try_from(*v).ok())
    }
}

/// Assembles `src` as a flat image starting at `origin`.
///
/// `org` may move the output address forward (the gap is filled with `$00`) or backward, but not
/// below `origin`, and emitted bytes may not overlap.
pub fn assemble(src: &str, origin: u16) -> Result<Vec<u8>, AsmError> {
    assemble_with_symbols(src, origin).map(|a| a.bytes)
}

/// Like [`assemble`], also returning the symbol table.
pub fn assemble_with_symbols(src: &str, origin: u16) -> Result<Assembly, AsmError> {
    let (chunks, symbols) = assemble_chunks(src, u32::from(origin), false)?;
    let start = u32::from(origin);
    let end = chunks
        .iter()
        .map(|c| c.phys + c.bytes.len() as u32)
        .max()
        .unwrap_or(start)
        .max(start);
    let mut image = Image::new((end - start) as usize, 0x00);
    for chunk in &chunks {
        if chunk.phys < start {
            return Err(AsmError::new(
                chunk.line,
                format!(
                    "address ${:04X} is below the origin ${origin:04X}",
                    chunk.phys
                ),
            ));
        }
        image.place((chunk.phys - start) as usize, chunk, start)?;
    }
    Ok(Assembly {
        bytes: image.bytes,
        symbols,
    })
}

/// Bytes emitted by one statement, at a physical output offset.
#[derive(Debug)]
pub(super) struct Chunk {
    pub(super) phys: u32,
    pub(super) line: usize,
    pub(super) bytes: Vec<u8>,
}

/// An output buffer that refuses overlapping writes.
pub(super) struct Image {
    pub(super) bytes: Vec<u8>,
    pub(super) used: Vec<bool>,
}

impl Image {
    pub(super) fn new(len: usize, fill: u8) -> Self {
        Self {
            bytes: vec![fill; len],
            used: vec![false; len],
        }
    }

    /// Writes `chunk` at `offset`; `base` is the address of offset 0, for messages.
    pub(super) fn place(
        &mut self,
        offset: usize,
        chunk: &Chunk,
        base: u32,
    ) -> Result<(), AsmError> {
        let end = offset + chunk.bytes.len();
        if end > self.bytes.len() {
            return Err(AsmError::new(
                chunk.line,
                "output beyond the end of the image",
            ));
        }
        if let Some(i) = (offset..end).find(|&i| self.used[i]) {
            return Err(AsmError::new(
                chunk.line,
                format!(
                    "overlaps bytes already placed at ${:04X}",
                    base as usize + i
                ),
            ));
        }
        self.bytes[offset..end].copy_from_slice(&chunk.bytes);
        self.used[offset..end].fill(true);
        Ok(())
    }
}

/// Lexes, parses and runs both passes.
pub(super) fn assemble_chunks(
    src: &str,
    origin: u32,
    rom_mode: bool,
) -> Result<(Vec<Chunk>, BTreeMap<String, i64>), AsmError> {
    let mut parser = Parser::new();
    let mut lines = Vec::new();
    for (i, text) in src.lines().enumerate() {
        let number = i + 1;
        let toks = super::lexer::lex(text).map_err(|m| AsmError::new(number, m))?;
        lines.push(
            parser
                .line(number, &toks)
                .map_err(|m| AsmError::new(number, m))?,
        );
    }
    let first = Pass::new(origin, rom_mode, None).run(&lines)?;
    let second = Pass::new(origin, rom_mode, Some(&first.symbols)).run(&lines)?;
    let symbols = second.symbols.into_iter().collect();
    Ok((second.chunks, symbols))
}

/// Where output goes: ROM (with an optional switchable bank) or RAM (no output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Area {
    Rom {
        kind: SectionKind,
        bank: Option<u32>,
    },
    Ram {
        kind: SectionKind,
    },
}

impl Area {
    fn key(self) -> (SectionKind, u32) {
        match self {
            Area::Rom { kind, bank } => (kind, bank.unwrap_or(0)),
            Area::Ram { kind } => (kind, 0),
        }
    }
}

/// One pass over the parsed lines.
struct Pass<'a> {
    /// Final symbols of the first pass (forward references), in the second pass.
    prev: Option<&'a HashMap<String, i64>>,
    symbols: HashMap<String, i64>,
    pc: u32,
    area: Area,
    origin: u32,
    rom_mode: bool,
    /// Where each section kind (and bank) stopped, for sections without an address.
    cursors: HashMap<(SectionKind, u32), u32>,
    chunks: Vec<Chunk>,
}

impl<'a> Pass<'a> {
    pub(super) fn new(origin: u32, rom_mode: bool, prev: Option<&'a HashMap<String, i64>>) -> Self {
        Self {
            prev,
            symbols: HashMap::new(),
            pc: origin,
            area: Area::Rom {
                kind: SectionKind::Rom0,
                bank: None,
            },
            origin,
            rom_mode,
            cursors: HashMap::new(),
            chunks: Vec::new(),
        }
    }

    fn run(mut self, lines: &[Line]) -> Result<Self, AsmError> {
        for line in lines {
            self.line(line).map_err(|m| AsmError::new(line.number, m))?;
        }
        Ok(self)
    }

    fn line(&mut self, line: &Line) -> Result<(), String> {
        for label in &line.labels {
            self.define(label, i64::from(self.pc))?;
        }
        let Some(stmt) = &line.stmt else {
            return Ok(());
        };
        match stmt {
            Stmt::Instr {
                mnemonic,
                operands,
                text,
            } => {
                let pc = self.pc;
                let mut eval = |e: &Expr| self.eval(e);
                match super::encode::encode(mnemonic, operands, pc, &mut eval) {
                    Ok(Some(bytes)) => self.emit(line.number, bytes),
                    Ok(None) => Err(format!("unknown mnemonic '{mnemonic}'")),
                    Err(m) if m.starts_with("invalid operands") && !text.is_empty() => {
                        Err(format!("{m}: {text}"))
                    }
                    Err(m) => Err(m),
                }
            }
            Stmt::Db(items) => {
                let mut bytes = Vec::new();
                for item in items {
                    match item {
                        DataItem::Bytes(b) => bytes.extend_from_slice(b),
                        DataItem::Expr(e) => bytes.push(match self.eval(e)? {
                            None => 0,
                            Some(v @ -128..=255) => v as u8,
                            Some(v) => return Err(format!("db value {v} out of 8-bit range")),
                        }),
                    }
                }
                self.emit(line.number, bytes)
            }
            Stmt::Dw(items) => {
                let mut bytes = Vec::new();
                for e in items {
                    let v = match self.eval(e)? {
                        None => 0,
                        Some(v @ -32768..=65535) => v as u16,
                        Some(v) => return Err(format!("dw value {v} out of 16-bit range")),
                    };
                    bytes.extend_from_slice(&v.to_le_bytes());
                }
                self.emit(line.number, bytes)
            }
            Stmt::Ds(count, fill) => {
                let count = self.eval_now(count, "ds count")?;
                if !(0..=0x10000).contains(&count) {
                    return Err(format!("ds count {count} out of range"));
                }
                let fill = match fill {
                    None => 0,
                    Some(e) => match self.eval(e)? {
                        None => 0,
                        Some(v @ -128..=255) => v as u8,
                        Some(v) => return Err(format!("ds fill {v} out of 8-bit range")),
                    },
                };
                match self.area {
                    Area::Ram { .. } => self.advance(count as u32),
                    Area::Rom { .. } => self.emit(line.number, vec![fill; count as usize]),
                }
            }
            Stmt::Org(addr) => {
                let addr = self.eval_now(addr, "org address")?;
                if !(0..=0xFFFF).contains(&addr) {
                    return Err(format!("org address {addr} out of range"));
                }
                self.pc = addr as u32;
                Ok(())
            }
            Stmt::Section { kind, addr, bank } => self.section(*kind, addr, bank),
            Stmt::Equ(name, value) => match self.eval(value)? {
                Some(v) => self.define(name, v),
                None => Ok(()),
            },
        }
    }

    fn section(
        &mut self,
        kind: SectionKind,
        addr: &Option<Expr>,
        bank: &Option<Expr>,
    ) -> Result<(), String> {
        self.cursors.insert(self.area.key(), self.pc);
        let bank = match bank {
            None => None,
            Some(e) => {
                let b = self.eval_now(e, "bank number")?;
                if !(1..=511).contains(&b) {
                    return Err(format!("bank {b} out of range (1..=511)"));
                }
                Some(b as u32)
            }
        };
        let area = match kind {
            SectionKind::Romx => Area::Rom {
                kind,
                bank: Some(bank.unwrap_or(1)),
            },
            SectionKind::Rom0 => Area::Rom { kind, bank: None },
            _ => Area::Ram { kind },
        };
        let (start, end) = kind.range();
        let pc = match addr {
            Some(e) => {
                let a = self.eval_now(e, "section address")?;
                if !(i64::from(start)..i64::from(end)).contains(&a) {
                    return Err(format!(
                        "section address ${a:X} outside {kind:?} (${start:04X}-${:04X})",
                        end - 1
                    ));
                }
                a as u32
            }
            None => match self.cursors.get(&area.key()) {
                Some(pc) => *pc,
                None if kind == SectionKind::Rom0 => self.origin,
                None => start,
            },
        };
        debug_assert!(kind.is_rom() == matches!(area, Area::Rom { .. }));
        self.area = area;
        self.pc = pc;
        Ok(())
    }

    fn define(&mut self, name: &str, value: i64) -> Result<(), String> {
        if self.symbols.insert(name.to_string(), value).is_some() {
            return Err(format!("duplicate label '{name}'"));
        }
        Ok(())
    }

    /// Physical output offset of the current address.
    fn phys(&self) -> Option<u32> {
        match self.area {
            Area::Ram { .. } => None,
            Area::Rom {
                bank: Some(bank), ..
            } if self.rom_mode && self.pc >= 0x4000 => Some(bank * 0x4000 + (self.pc - 0x4000)),
            Area::Rom { .. } => Some(self.pc),
        }
    }

    pub(super) fn emit(&mut self, line: usize, bytes: Vec<u8>) -> Result<(), String> {
        let Some(phys) = self.phys() else {
            return Err("cannot emit bytes in a RAM section (use ds to reserve space)".to_string());
        };
        if let Area::Rom { bank: Some(_), .. } = self.area
            && self.rom_mode
            && self.pc + bytes.len() as u32 > 0x8000
        {
            return Err("ROMX section overflows its bank (past $7FFF)".to_string());
        }
        let len = bytes.len() as u32;
        if self.prev.is_some() && !bytes.is_empty() {
            self.chunks.push(Chunk { phys, line, bytes });
        }
        self.advance(len)
    }

    fn advance(&mut self, len: u32) -> Result<(), String> {
        self.pc += len;
        if self.pc > 0x10000 {
            return Err("address past $FFFF".to_string());
        }
        Ok(())
    }

    /// Evaluates an expression that must be known in the first pass.
    fn eval_now(&mut self, e: &Expr, what: &str) -> Result<i64, String> {
        self.eval(e)?
            .ok_or_else(|| format!("{what} must not use labels defined later"))
    }

    /// Evaluates an expression; `None` for forward references in the first pass.
    fn eval(&self, e: &Expr) -> Result<Option<i64>, String> {
        Ok(match e {
            Expr::Num(n) => Some(*n),
            Expr::Here => Some(i64::from(self.pc)),
            Expr::Sym(name) => match self.symbols.get(name) {
                Some(v) => Some(*v),
                None => match self.prev {
                    None => None,
                    Some(prev) => match prev.get(name) {
                        Some(v) => Some(*v),
                        None => return Err(format!("undefined label '{name}'")),
                    },
                },
            },
            Expr::Neg(x) => self.eval(x)?.map(i64::wrapping_neg),
            Expr::Not(x) => self.eval(x)?.map(|v| !v),
            Expr::Low(x) => self.eval(x)?.map(|v| v & 0xFF),
            Expr::High(x) => self.eval(x)?.map(|v| (v >> 8) & 0xFF),
            Expr::Bin(op, l, r) => {
                let (Some(l), Some(r)) = (self.eval(l)?, self.eval(r)?) else {
                    return Ok(None);
                };
                Some(binop(*op, l, r)?)
            }
        })
    }
}

fn binop(op: super::parse::BinOp, l: i64, r: i64) -> Result<i64, String> {
    use super::parse::BinOp as B;
    Ok(match op {
        B::Add => l.wrapping_add(r),
        B::Sub => l.wrapping_sub(r),
        B::Mul => l.wrapping_mul(r),
        B::Div | B::Mod if r == 0 => return Err("division by zero".to_string()),
        B::Div => l.wrapping_div(r),
        B::Mod => l.wrapping_rem(r),
        B::And => l & r,
        B::Or => l | r,
        B::Xor => l ^ r,
        B::Shl | B::Shr if !(0..64).contains(&r) => {
            return Err(format!("shift count {r} out of range"));
        }
        B::Shl => l << r,
        B::Shr => l >> r,
    })
}
