//! Turns tokens into statements: labels, directives, instructions with typed operands, and
//! expression trees.
//!
//! Local labels (`.loop`) are resolved to their full name (`Main.loop`) here, while the lines are
//! read in order, so later passes only see full names.

use super::lexer::Tok;

/// An expression tree; evaluated in each pass, when symbol values are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Expr {
    /// A literal.
    Num(i64),
    /// A label or constant, by full name.
    Sym(String),
    /// The address of the current statement (`@`).
    Here,
    /// `-x`
    Neg(Box<Expr>),
    /// `~x`
    Not(Box<Expr>),
    /// `low(x)`: bits 0-7.
    Low(Box<Expr>),
    /// `high(x)`: bits 8-15.
    High(Box<Expr>),
    /// A binary operation.
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

/// Binary operators of expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

/// 16-bit register names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum R16 {
    Bc,
    De,
    Hl,
    Sp,
    Af,
}

/// One instruction operand, classified by its syntax (never by its value, so an instruction's
/// size is known in the first pass).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Operand {
    /// An 8-bit register by its encoding index: b=0 c=1 d=2 e=3 h=4 l=5 a=7.
    R8(u8),
    /// A 16-bit register.
    R16(R16),
    /// A condition other than `c` (which is parsed as register `c`): nz=0 z=1 nc=2.
    Cond(u8),
    /// `[hl]`
    MemHl,
    /// `[hl+]`, `[hli]`
    MemHli,
    /// `[hl-]`, `[hld]`
    MemHld,
    /// `[bc]`
    MemBc,
    /// `[de]`
    MemDe,
    /// `[c]`, `[$ff00+c]`
    MemC,
    /// `[n16]`
    Mem(Expr),
    /// `[$ff00+n8]`: written with an explicit `$ff00+`, encodes as the LDH form.
    MemHigh(Expr),
    /// `sp+e8`, `sp-e8` (in `ld hl, sp+e8`); the expression carries the sign.
    SpOff(Expr),
    /// An immediate value or address.
    Imm(Expr),
}

/// One item of a `db` list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DataItem {
    Expr(Expr),
    Bytes(Vec<u8>),
}

/// Memory areas a `section` can place code or variables in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum SectionKind {
    Rom0,
    Romx,
    Vram,
    Sram,
    Wram0,
    Wramx,
    Oam,
    Hram,
}

impl SectionKind {
    fn from_name(name: &str) -> Option<Self> {
        Some(match name.to_ascii_lowercase().as_str() {
            "rom0" => Self::Rom0,
            "romx" => Self::Romx,
            "vram" => Self::Vram,
            "sram" => Self::Sram,
            "wram0" => Self::Wram0,
            "wramx" => Self::Wramx,
            "oam" => Self::Oam,
            "hram" => Self::Hram,
            _ => return None,
        })
    }

    /// The address range (start, end exclusive) of the area.
    pub(crate) fn range(self) -> (u32, u32) {
        match self {
            Self::Rom0 => (0x0000, 0x4000),
            Self::Romx => (0x4000, 0x8000),
            Self::Vram => (0x8000, 0xA000),
            Self::Sram => (0xA000, 0xC000),
            Self::Wram0 => (0xC000, 0xD000),
            Self::Wramx => (0xD000, 0xE000),
            Self::Oam => (0xFE00, 0xFEA0),
            Self::Hram => (0xFF80, 0xFFFF),
        }
    }

    /// True for areas that hold bytes of the output (ROM); others only reserve addresses.
    pub(crate) fn is_rom(self) -> bool {
        matches!(self, Self::Rom0 | Self::Romx)
    }
}

/// A statement: what a line does after its labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stmt {
    /// A CPU instruction; `text` is the operand text, for error messages.
    Instr {
        mnemonic: String,
        operands: Vec<Operand>,
        text: String,
    },
    /// `db` items.
    Db(Vec<DataItem>),
    /// `dw` items.
    Dw(Vec<Expr>),
    /// `ds count[, fill]`
    Ds(Expr, Option<Expr>),
    /// `org addr`
    Org(Expr),
    /// `section "name", KIND[addr], BANK[n]`
    Section {
        kind: SectionKind,
        addr: Option<Expr>,
        bank: Option<Expr>,
    },
    /// `name equ value`, `name = value`, `def name equ value`
    Equ(String, Expr),
}

/// One parsed source line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    /// 1-based line number.
    pub number: usize,
    /// Labels defined at the start of the line (full names).
    pub labels: Vec<String>,
    /// The statement, if any.
    pub stmt: Option<Stmt>,
}

/// Words that cannot be labels.
const RESERVED: &[&str] = &[
    "a", "b", "c", "d", "e", "h", "l", "af", "bc", "de", "hl", "sp", "hli", "hld", "nz", "z", "nc",
];

fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name.to_ascii_lowercase().as_str())
}

/// Reads lines in order, tracking the scope of local labels.
pub(crate) struct Parser {
    scope: String,
}

impl Parser {
    pub(crate) fn new() -> Self {
        Self {
            scope: String::new(),
        }
    }

    /// Parses the tokens of one line. Errors are messages without the line number.
    pub(crate) fn line(&mut self, number: usize, toks: &[Tok]) -> Result<Line, String> {
        let mut pos = 0;
        let mut labels = Vec::new();
        while let (Some(Tok::Ident(name)), Some(Tok::Colon | Tok::DoubleColon)) =
            (toks.get(pos), toks.get(pos + 1))
        {
            labels.push(self.define(name)?);
            pos += 2;
        }
        let rest = &toks[pos..];
        let stmt = if rest.is_empty() {
            None
        } else {
            Some(self.statement(rest)?)
        };
        Ok(Line {
            number,
            labels,
            stmt,
        })
    }

    /// Full name for a label being defined; a global label opens a new scope.
    fn define(&mut self, name: &str) -> Result<String, String> {
        if is_reserved(name) {
            return Err(format!("'{name}' is a reserved word and cannot be a label"));
        }
        if let Some(local) = name.strip_prefix('.') {
            if local.is_empty() || local.contains('.') {
                return Err(format!("invalid label name '{name}'"));
            }
            Ok(format!("{}{name}", self.scope))
        } else {
            if !name.contains('.') {
                self.scope = name.to_string();
            }
            Ok(name.to_string())
        }
    }

    /// Full name for a label being referenced.
    fn reference(&self, name: &str) -> String {
        if name.starts_with('.') {
            format!("{}{name}", self.scope)
        } else {
            name.to_string()
        }
    }

    fn statement(&mut self, toks: &[Tok]) -> Result<Stmt, String> {
        let Tok::Ident(word) = &toks[0] else {
            return Err(format!(
                "expected an instruction or directive, found '{}'",
                render(&toks[..1])
            ));
        };
        let lower = word.to_ascii_lowercase();

        // Constants: `name equ x`, `name = x`, `def name equ x`.
        let (def_at, skip) = if lower == "def" { (1, 1) } else { (0, 0) };
        if let Some(Tok::Ident(name)) = toks.get(def_at) {
            let is_equ = match toks.get(def_at + 1) {
                Some(Tok::Ident(w)) => w.eq_ignore_ascii_case("equ"),
                Some(Tok::Equals) => true,
                _ => false,
            };
            if is_equ && (skip == 1 || def_at == 0) {
                if is_reserved(name) || name.starts_with('.') {
                    return Err(format!("invalid constant name '{name}'"));
                }
                let value = self.expr_all(&toks[def_at + 2..])?;
                return Ok(Stmt::Equ(name.clone(), value));
            }
        }

        let args = &toks[1..];
        match lower.as_str() {
            "db" => {
                let mut items = Vec::new();
                for item in split_commas(args)? {
                    match item {
                        [Tok::Str(bytes)] => items.push(DataItem::Bytes(bytes.clone())),
                        _ => items.push(DataItem::Expr(self.expr_all(item)?)),
                    }
                }
                Ok(Stmt::Db(items))
            }
            "dw" => {
                let items = split_commas(args)?
                    .into_iter()
                    .map(|item| self.expr_all(item))
                    .collect::<Result<_, _>>()?;
                Ok(Stmt::Dw(items))
            }
            "ds" => {
                let parts = split_commas(args)?;
                match parts.as_slice() {
                    [count] => Ok(Stmt::Ds(self.expr_all(count)?, None)),
                    [count, fill] => {
                        Ok(Stmt::Ds(self.expr_all(count)?, Some(self.expr_all(fill)?)))
                    }
                    _ => Err("ds takes a count and an optional fill byte".to_string()),
                }
            }
            "org" => {
                let parts = split_commas(args)?;
                match parts.as_slice() {
                    [addr] => Ok(Stmt::Org(self.expr_all(addr)?)),
                    _ => Err("org takes one address".to_string()),
                }
            }
            "section" => self.section(args),
            _ => {
                let operands = split_commas(args)?
                    .into_iter()
                    .map(|op| self.operand(op))
                    .collect::<Result<_, _>>()?;
                Ok(Stmt::Instr {
                    mnemonic: lower,
                    operands,
                    text: render(args),
                })
            }
        }
    }

    /// `section "name", KIND[addr], BANK[n]` (the address and bank are optional).
    fn section(&mut self, args: &[Tok]) -> Result<Stmt, String> {
        let parts = split_commas(args)?;
        let usage = "expected section \"name\", KIND[$addr][, BANK[n]]";
        let (kind_part, bank_part) = match parts.as_slice() {
            [[Tok::Str(_)], kind] => (*kind, None),
            [[Tok::Str(_)], kind, bank] => (*kind, Some(*bank)),
            _ => return Err(usage.to_string()),
        };
        let (kind_name, addr) = self.bracketed(kind_part, usage)?;
        let kind = SectionKind::from_name(&kind_name)
            .ok_or_else(|| format!("unknown section type '{kind_name}'"))?;
        let bank = match bank_part {
            None => None,
            Some(part) => {
                let (word, value) = self.bracketed(part, usage)?;
                if !word.eq_ignore_ascii_case("bank") || value.is_none() {
                    return Err(usage.to_string());
                }
                if kind != SectionKind::Romx {
                    return Err("only ROMX sections take a bank".to_string());
                }
                value
            }
        };
        Ok(Stmt::Section { kind, addr, bank })
    }

    /// `WORD` or `WORD[expr]`.
    fn bracketed(&self, toks: &[Tok], usage: &str) -> Result<(String, Option<Expr>), String> {
        match toks {
            [Tok::Ident(word)] => Ok((word.clone(), None)),
            [Tok::Ident(word), Tok::LBracket, inner @ .., Tok::RBracket] => {
                Ok((word.clone(), Some(self.expr_all(inner)?)))
            }
            _ => Err(usage.to_string()),
        }
    }

    fn operand(&self, toks: &[Tok]) -> Result<Operand, String> {
        if let [Tok::Ident(word)] = toks {
            let lower = word.to_ascii_lowercase();
            let reg = match lower.as_str() {
                "b" => Some(Operand::R8(0)),
                "c" => Some(Operand::R8(1)),
                "d" => Some(Operand::R8(2)),
                "e" => Some(Operand::R8(3)),
                "h" => Some(Operand::R8(4)),
                "l" => Some(Operand::R8(5)),
                "a" => Some(Operand::R8(7)),
                "bc" => Some(Operand::R16(R16::Bc)),
                "de" => Some(Operand::R16(R16::De)),
                "hl" => Some(Operand::R16(R16::Hl)),
                "sp" => Some(Operand::R16(R16::Sp)),
                "af" => Some(Operand::R16(R16::Af)),
                "nz" => Some(Operand::Cond(0)),
                "z" => Some(Operand::Cond(1)),
                "nc" => Some(Operand::Cond(2)),
                "hli" | "hld" => return Err(format!("'{word}' must be in brackets")),
                _ => None,
            };
            if let Some(reg) = reg {
                return Ok(reg);
            }
        }
        match toks.first() {
            None => return Err("missing operand".to_string()),
            Some(Tok::LBracket | Tok::LParen)
                if matching_close(toks, 0) == Some(toks.len() - 1) =>
            {
                return self.memory(&toks[1..toks.len() - 1]);
            }
            Some(Tok::Ident(word))
                if word.eq_ignore_ascii_case("sp")
                    && matches!(toks.get(1), Some(Tok::Plus | Tok::Minus)) =>
            {
                return Ok(Operand::SpOff(self.expr_all(&toks[1..])?));
            }
            _ => {}
        }
        Ok(Operand::Imm(self.expr_all(toks)?))
    }

    /// The inside of `[...]` or `(...)`.
    fn memory(&self, inner: &[Tok]) -> Result<Operand, String> {
        let word = |i: usize| match inner.get(i) {
            Some(Tok::Ident(w)) => Some(w.to_ascii_lowercase()),
            _ => None,
        };
        match (inner.len(), word(0).as_deref()) {
            (1, Some("hl")) => return Ok(Operand::MemHl),
            (1, Some("hli")) => return Ok(Operand::MemHli),
            (1, Some("hld")) => return Ok(Operand::MemHld),
            (1, Some("bc")) => return Ok(Operand::MemBc),
            (1, Some("de")) => return Ok(Operand::MemDe),
            (1, Some("c")) => return Ok(Operand::MemC),
            (2, Some("hl")) if inner[1] == Tok::Plus => return Ok(Operand::MemHli),
            (2, Some("hl")) if inner[1] == Tok::Minus => return Ok(Operand::MemHld),
            _ => {}
        }
        if let [Tok::Num(0xFF00), Tok::Plus, rest @ ..] = inner {
            if rest.len() == 1 && word(2).as_deref() == Some("c") {
                return Ok(Operand::MemC);
            }
            return Ok(Operand::MemHigh(self.expr_all(rest)?));
        }
        Ok(Operand::Mem(self.expr_all(inner)?))
    }

    /// Parses `toks` as exactly one expression.
    fn expr_all(&self, toks: &[Tok]) -> Result<Expr, String> {
        if toks.is_empty() {
            return Err("missing expression".to_string());
        }
        let mut pos = 0;
        let e = self.expr_bin(toks, &mut pos, 0)?;
        if pos != toks.len() {
            return Err(format!(
                "unexpected '{}' in expression",
                render(&toks[pos..])
            ));
        }
        Ok(e)
    }

    /// Precedence climbing; level 0 binds loosest.
    fn expr_bin(&self, toks: &[Tok], pos: &mut usize, level: usize) -> Result<Expr, String> {
        const LEVELS: &[&[(Tok, BinOp)]] = &[
            &[(Tok::Pipe, BinOp::Or)],
            &[(Tok::Caret, BinOp::Xor)],
            &[(Tok::Amp, BinOp::And)],
            &[(Tok::Shl, BinOp::Shl), (Tok::Shr, BinOp::Shr)],
            &[(Tok::Plus, BinOp::Add), (Tok::Minus, BinOp::Sub)],
            &[
                (Tok::Star, BinOp::Mul),
                (Tok::Slash, BinOp::Div),
                (Tok::Percent, BinOp::Mod),
            ],
        ];
        if level == LEVELS.len() {
            return self.expr_unary(toks, pos);
        }
        let mut lhs = self.expr_bin(toks, pos, level + 1)?;
        'more: while let Some(tok) = toks.get(*pos) {
            for (op_tok, op) in LEVELS[level] {
                if tok == op_tok {
                    *pos += 1;
                    let rhs = self.expr_bin(toks, pos, level + 1)?;
                    lhs = Expr::Bin(*op, Box::new(lhs), Box::new(rhs));
                    continue 'more;
                }
            }
            break;
        }
        Ok(lhs)
    }

    fn expr_unary(&self, toks: &[Tok], pos: &mut usize) -> Result<Expr, String> {
        let Some(tok) = toks.get(*pos) else {
            return Err("expression ends too early".to_string());
        };
        *pos += 1;
        match tok {
            Tok::Minus => Ok(Expr::Neg(Box::new(self.expr_unary(toks, pos)?))),
            Tok::Plus => self.expr_unary(toks, pos),
            Tok::Tilde => Ok(Expr::Not(Box::new(self.expr_unary(toks, pos)?))),
            Tok::Num(n) => Ok(Expr::Num(*n)),
            Tok::Here => Ok(Expr::Here),
            Tok::LParen => {
                let e = self.expr_bin(toks, pos, 0)?;
                if toks.get(*pos) != Some(&Tok::RParen) {
                    return Err("missing ')' in expression".to_string());
                }
                *pos += 1;
                Ok(e)
            }
            Tok::Ident(name) => {
                let lower = name.to_ascii_lowercase();
                if toks.get(*pos) == Some(&Tok::LParen) && (lower == "low" || lower == "high") {
                    *pos += 1;
                    let e = self.expr_bin(toks, pos, 0)?;
                    if toks.get(*pos) != Some(&Tok::RParen) {
                        return Err(format!("missing ')' after {lower}("));
                    }
                    *pos += 1;
                    return Ok(if lower == "low" {
                        Expr::Low(Box::new(e))
                    } else {
                        Expr::High(Box::new(e))
                    });
                }
                if is_reserved(name) {
                    return Err(format!("register '{name}' cannot be used in an expression"));
                }
                Ok(Expr::Sym(self.reference(name)))
            }
            other => Err(format!(
                "unexpected '{}' in expression",
                render(std::slice::from_ref(other))
            )),
        }
    }
}

/// Index of the bracket closing the one at `open`.
fn matching_close(toks: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, tok) in toks.iter().enumerate().skip(open) {
        match tok {
            Tok::LBracket | Tok::LParen => depth += 1,
            Tok::RBracket | Tok::RParen => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits on commas outside brackets; no tokens gives no parts.
fn split_commas(toks: &[Tok]) -> Result<Vec<&[Tok]>, String> {
    if toks.is_empty() {
        return Ok(Vec::new());
    }
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, tok) in toks.iter().enumerate() {
        match tok {
            Tok::LBracket | Tok::LParen => depth += 1,
            Tok::RBracket | Tok::RParen => depth -= 1,
            Tok::Comma if depth == 0 => {
                parts.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        if depth < 0 {
            return Err("unbalanced brackets".to_string());
        }
    }
    if depth != 0 {
        return Err("unbalanced brackets".to_string());
    }
    parts.push(&toks[start..]);
    if parts.iter().any(|p| p.is_empty()) {
        return Err("empty operand".to_string());
    }
    Ok(parts)
}

/// Source-like text of tokens, for messages.
pub(crate) fn render(toks: &[Tok]) -> String {
    let mut out = String::new();
    for tok in toks {
        let piece = match tok {
            Tok::Ident(s) => s.clone(),
            Tok::Num(n) if *n > 9 => format!("${n:X}"),
            Tok::Num(n) => n.to_string(),
            Tok::Str(b) => format!("\"{}\"", String::from_utf8_lossy(b)),
            Tok::Comma => ", ".to_string(),
            Tok::LBracket => "[".to_string(),
            Tok::RBracket => "]".to_string(),
            Tok::LParen => "(".to_string(),
            Tok::RParen => ")".to_string(),
            Tok::Plus => "+".to_string(),
            Tok::Minus => "-".to_string(),
            Tok::Star => "*".to_string(),
            Tok::Slash => "/".to_string(),
            Tok::Percent => "%".to_string(),
            Tok::Amp => "&".to_string(),
            Tok::Pipe => "|".to_string(),
            Tok::Caret => "^".to_string(),
            Tok::Tilde => "~".to_string(),
            Tok::Shl => "<<".to_string(),
            Tok::Shr => ">>".to_string(),
            Tok::Colon => ":".to_string(),
            Tok::DoubleColon => "::".to_string(),
            Tok::Equals => "=".to_string(),
            Tok::Here => "@".to_string(),
        };
        out.push_str(&piece);
    }
    out
}
