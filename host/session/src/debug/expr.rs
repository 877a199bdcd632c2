//! Breakpoint conditions: a small expression language over the CPU's registers, memory and
//! the value an access read or wrote, as debuggers write them:
//! `a == $10`, `[hl] > 5 && value != 0`, `bc == 0x1234 || [$C0A0] & 1`.
//!
//! Grammar (C's precedence, lowest first): `||`, `&&`, comparisons (`== != < > <= >=`), `|`,
//! `^`, `&`, `+ -`, unary `! -`, then atoms: numbers (`10`, `$1F`, `0x1F`, `1Fh`, `%1010`),
//! registers (`a f b c d e h l af bc de hl sp pc`, any case), `value` (the byte the access read
//! or wrote), `[expr]` (the byte at an address, read without side effects) and parentheses.
//! Values are integers; a comparison or logic gives 1 or 0; a condition holds when it is not 0.

use gb_core::{Gb, Registers};

/// A parsed condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A number.
    Num(i64),
    /// A register, by name.
    Reg(Reg),
    /// The value the access read or wrote.
    Value,
    /// The byte at an address.
    Mem(Box<Expr>),
    /// A unary operator.
    Unary(char, Box<Expr>),
    /// A binary operator.
    Binary(&'static str, Box<Expr>, Box<Expr>),
}

/// A CPU register a condition can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Reg {
    A,
    F,
    B,
    C,
    D,
    E,
    H,
    L,
    Af,
    Bc,
    De,
    Hl,
    Sp,
    Pc,
}

impl Reg {
    fn from_name(s: &str) -> Option<Reg> {
        Some(match s.to_ascii_lowercase().as_str() {
            "a" => Reg::A,
            "f" => Reg::F,
            "b" => Reg::B,
            "c" => Reg::C,
            "d" => Reg::D,
            "e" => Reg::E,
            "h" => Reg::H,
            "l" => Reg::L,
            "af" => Reg::Af,
            "bc" => Reg::Bc,
            "de" => Reg::De,
            "hl" => Reg::Hl,
            "sp" => Reg::Sp,
            "pc" => Reg::Pc,
            _ => return None,
        })
    }

    fn get(self, r: &Registers) -> i64 {
        let pair = |h: u8, l: u8| i64::from(u16::from_be_bytes([h, l]));
        match self {
            Reg::A => i64::from(r.a),
            Reg::F => i64::from(r.f),
            Reg::B => i64::from(r.b),
            Reg::C => i64::from(r.c),
            Reg::D => i64::from(r.d),
            Reg::E => i64::from(r.e),
            Reg::H => i64::from(r.h),
            Reg::L => i64::from(r.l),
            Reg::Af => pair(r.a, r.f),
            Reg::Bc => pair(r.b, r.c),
            Reg::De => pair(r.d, r.e),
            Reg::Hl => pair(r.h, r.l),
            Reg::Sp => i64::from(r.sp),
            Reg::Pc => i64::from(r.pc),
        }
    }
}

/// Why a condition does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("condition '{text}': {why} (at character {at})")]
pub struct ExprError {
    /// The condition.
    pub text: String,
    /// What is wrong.
    pub why: String,
    /// Where (0-based, in characters).
    pub at: usize,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(i64),
    Ident(String),
    Op(&'static str),
}

const OPS: [&str; 19] = [
    "||", "&&", "==", "!=", "<=", ">=", "<", ">", "|", "^", "&", "+", "-", "!", "(", ")", "[", "]",
    "=",
];

fn lex(text: &str) -> Result<Vec<(usize, Tok)>, ExprError> {
    let err = |why: String, at: usize| ExprError {
        text: text.to_owned(),
        why,
        at,
    };
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_alphanumeric() || c == '$' || c == '%' || c == '_' {
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let number = if let Some(h) = word.strip_prefix('$') {
                Some(i64::from_str_radix(h, 16))
            } else if let Some(b) = word.strip_prefix('%') {
                Some(i64::from_str_radix(b, 2))
            } else if let Some(h) = word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
                Some(i64::from_str_radix(h, 16))
            } else if word.starts_with(|c: char| c.is_ascii_digit()) {
                match word.strip_suffix(['h', 'H']) {
                    Some(h) => Some(i64::from_str_radix(h, 16)),
                    None => Some(word.parse::<i64>()),
                }
            } else {
                None
            };
            match number {
                Some(Ok(n)) => out.push((start, Tok::Num(n))),
                Some(Err(_)) => return Err(err(format!("'{word}' is not a number"), start)),
                None => out.push((start, Tok::Ident(word))),
            }
            continue;
        }
        let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
        match OPS.iter().find(|op| rest.starts_with(**op)) {
            Some(op) => {
                // A lone `=` is taken as `==` (users type `a = 5`).
                let op: &'static str = if *op == "=" { "==" } else { op };
                i += if rest.starts_with("==") || rest.starts_with(op) && op.len() == 2 {
                    2
                } else {
                    1
                };
                out.push((start, Tok::Op(op)));
            }
            None => return Err(err(format!("'{c}' is not understood"), start)),
        }
    }
    Ok(out)
}

struct Parser<'a> {
    text: &'a str,
    toks: Vec<(usize, Tok)>,
    i: usize,
}

const LEVELS: [&[&str]; 7] = [
    &["||"],
    &["&&"],
    &["==", "!=", "<=", ">=", "<", ">"],
    &["|"],
    &["^"],
    &["&"],
    &["+", "-"],
];

impl Parser<'_> {
    fn err(&self, why: impl Into<String>) -> ExprError {
        ExprError {
            text: self.text.to_owned(),
            why: why.into(),
            at: self
                .toks
                .get(self.i)
                .map_or(self.text.chars().count(), |t| t.0),
        }
    }

    fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.i) {
            Some((_, Tok::Op(o))) => Some(o),
            _ => None,
        }
    }

    fn binary(&mut self, level: usize) -> Result<Expr, ExprError> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        while let Some(op) = self.peek_op().filter(|o| LEVELS[level].contains(o)) {
            self.i += 1;
            let rhs = self.binary(level + 1)?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        match self.peek_op() {
            Some(op @ ("!" | "-")) => {
                self.i += 1;
                let e = self.unary()?;
                Ok(Expr::Unary(op.chars().next().unwrap_or('!'), Box::new(e)))
            }
            _ => self.atom(),
        }
    }

    fn atom(&mut self) -> Result<Expr, ExprError> {
        let Some((_, tok)) = self.toks.get(self.i).cloned() else {
            return Err(self.err("the condition ends too early"));
        };
        self.i += 1;
        match tok {
            Tok::Num(n) => Ok(Expr::Num(n)),
            Tok::Ident(w) if w.eq_ignore_ascii_case("value") => Ok(Expr::Value),
            Tok::Ident(w) => match Reg::from_name(&w) {
                Some(r) => Ok(Expr::Reg(r)),
                None => {
                    self.i -= 1;
                    Err(self.err(format!(
                        "'{w}' is no register (a f b c d e h l af bc de hl sp pc) or 'value'"
                    )))
                }
            },
            Tok::Op(open @ ("(" | "[")) => {
                let e = self.binary(0)?;
                let close = if open == "(" { ")" } else { "]" };
                if self.peek_op() != Some(close) {
                    return Err(self.err(format!("'{close}' expected")));
                }
                self.i += 1;
                Ok(if open == "(" {
                    e
                } else {
                    Expr::Mem(Box::new(e))
                })
            }
            Tok::Op(op) => {
                self.i -= 1;
                Err(self.err(format!("'{op}' where a value was expected")))
            }
        }
    }
}

/// Parse a condition.
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    let mut p = Parser {
        text,
        toks: lex(text)?,
        i: 0,
    };
    let e = p.binary(0)?;
    if p.i != p.toks.len() {
        return Err(p.err("more after the end of the condition"));
    }
    Ok(e)
}

impl Expr {
    /// The value of the expression on `gb` now, `value` being the accessed byte.
    pub fn eval(&self, gb: &Gb, value: u8) -> i64 {
        match self {
            Expr::Num(n) => *n,
            Expr::Reg(r) => r.get(&gb.regs()),
            Expr::Value => i64::from(value),
            Expr::Mem(a) => i64::from(gb.peek(a.eval(gb, value) as u16)),
            Expr::Unary('-', e) => e.eval(gb, value).wrapping_neg(),
            Expr::Unary(_, e) => i64::from(e.eval(gb, value) == 0),
            Expr::Binary(op, a, b) => {
                let x = a.eval(gb, value);
                // Short-circuit, as users expect of `&&` and `||`.
                match *op {
                    "&&" => return i64::from(x != 0 && b.eval(gb, value) != 0),
                    "||" => return i64::from(x != 0 || b.eval(gb, value) != 0),
                    _ => {}
                }
                let y = b.eval(gb, value);
                match *op {
                    "==" => i64::from(x == y),
                    "!=" => i64::from(x != y),
                    "<" => i64::from(x < y),
                    ">" => i64::from(x > y),
                    "<=" => i64::from(x <= y),
                    ">=" => i64::from(x >= y),
                    "|" => x | y,
                    "^" => x ^ y,
                    "&" => x & y,
                    "+" => x.wrapping_add(y),
                    _ => x.wrapping_sub(y),
                }
            }
        }
    }

    /// Whether the condition holds (is not 0).
    pub fn holds(&self, gb: &Gb, value: u8) -> bool {
        self.eval(gb, value) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gb_core::Cartridge;

    fn gb() -> Gb {
        let rom = gb_core::asm::rom("loop:\n jr loop\n").unwrap();
        let mut g = Gb::new(Cartridge::from_rom(rom).unwrap());
        g.set_registers(Registers {
            a: 0x10,
            b: 0x12,
            c: 0x34,
            h: 0xC0,
            l: 0xA0,
            ..g.regs()
        });
        g.poke(0xC0A0, 7);
        g
    }

    #[test]
    fn conditions_read_registers_memory_and_the_value() {
        let g = gb();
        let t = |s: &str, v: u8| parse(s).unwrap().holds(&g, v);
        assert!(t("a == $10", 0));
        assert!(t("A = 16", 0), "a lone = is ==");
        assert!(t("bc == 0x1234 && [hl] > 5", 0));
        assert!(t("[$C0A0] & 1", 0));
        assert!(!t("[hl] == 8 || a != 10h", 0));
        assert!(t("value >= 3 && value < %1000", 5));
        assert!(t("!(a - 16)", 0));
        assert!(t("-1 < 0", 0));
        assert!(
            parse("2 * 3").is_err(),
            "no multiplication: the parser says so"
        );
        assert_eq!(parse("a + b").unwrap().eval(&g, 0), 0x22);
        assert_eq!(parse("(a | 1) ^ 3").unwrap().eval(&g, 0), 0x12);
    }

    #[test]
    fn bad_conditions_say_where() {
        for (text, says) in [
            ("a ==", "ends too early"),
            ("x == 1", "'x' is no register"),
            ("[hl", "']' expected"),
            ("a == 1 )", "more after the end"),
            ("a # 1", "'#' is not understood"),
            ("$zz == 1", "not a number"),
            ("== 1", "where a value was expected"),
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
