//! Splits one source line into tokens.
//!
//! The lexer works a line at a time: a statement never spans lines. A `;` outside a string starts
//! a comment that runs to the end of the line.

/// One token of a source line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A name: mnemonic, register, directive, label (`loop`, `.loop`, `Main.loop`).
    Ident(String),
    /// A number literal (`$1F`, `0x1F`, `%0101`, `0b0101`, `31`, `'A'`).
    Num(i64),
    /// A double-quoted string, escapes resolved.
    Str(Vec<u8>),
    /// `,`
    Comma,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%` (modulo; a `%` that starts a binary literal is lexed as a number)
    Percent,
    /// `&`
    Amp,
    /// `|`
    Pipe,
    /// `^`
    Caret,
    /// `~`
    Tilde,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `:`
    Colon,
    /// `::` (exported label in RGBDS; treated like `:`)
    DoubleColon,
    /// `=`
    Equals,
    /// `@`, or a lone `$`: the address of the current statement
    Here,
}

impl Tok {
    /// True for tokens after which a `%` is the modulo operator rather than a binary prefix.
    fn ends_value(&self) -> bool {
        matches!(
            self,
            Tok::Ident(_) | Tok::Num(_) | Tok::RParen | Tok::RBracket | Tok::Here
        )
    }
}

/// Tokenizes `text`. Errors are messages without the line number; the caller adds it.
pub(crate) fn lex(text: &str) -> Result<Vec<Tok>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks: Vec<Tok> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            ';' => break,
            c if c.is_whitespace() => i += 1,
            '"' => {
                let (bytes, next) = lex_string(&chars, i + 1, '"')?;
                toks.push(Tok::Str(bytes));
                i = next;
            }
            '\'' => {
                let (bytes, next) = lex_string(&chars, i + 1, '\'')?;
                if bytes.len() != 1 {
                    return Err("character literal must hold exactly one byte".to_string());
                }
                toks.push(Tok::Num(i64::from(bytes[0])));
                i = next;
            }
            '$' => {
                let start = i + 1;
                let end = scan_digits(&chars, start, 16);
                if end == start {
                    toks.push(Tok::Here);
                    i += 1;
                } else {
                    let word_end = scan_word(&chars, end);
                    if word_end != end {
                        let word: String = chars[i..word_end].iter().collect();
                        return Err(format!("invalid number '{word}'"));
                    }
                    toks.push(Tok::Num(parse_digits(&chars[start..end], 16)?));
                    i = end;
                }
            }
            '%' => {
                let binary_follows = chars.get(i + 1).is_some_and(|d| *d == '0' || *d == '1');
                if binary_follows && !toks.last().is_some_and(Tok::ends_value) {
                    let end = scan_digits(&chars, i + 1, 2);
                    toks.push(Tok::Num(parse_digits(&chars[i + 1..end], 2)?));
                    i = end;
                } else {
                    toks.push(Tok::Percent);
                    i += 1;
                }
            }
            '0'..='9' => {
                let (radix, start) = match (c, chars.get(i + 1)) {
                    ('0', Some('x' | 'X')) => (16, i + 2),
                    ('0', Some('b' | 'B')) => (2, i + 2),
                    ('0', Some('o' | 'O')) => (8, i + 2),
                    _ => (10, i),
                };
                let end = scan_digits(&chars, start, radix);
                // A literal running straight into letters (`12ab`, `0x`) is malformed.
                let word_end = scan_word(&chars, end);
                if end == start || word_end != end {
                    let word: String = chars[i..word_end].iter().collect();
                    return Err(format!("invalid number '{word}'"));
                }
                toks.push(Tok::Num(parse_digits(&chars[start..end], radix)?));
                i = end;
            }
            c if c.is_ascii_alphabetic() || c == '_' || c == '.' => {
                let end = scan_word(&chars, i);
                toks.push(Tok::Ident(chars[i..end].iter().collect()));
                i = end;
            }
            ',' => push(&mut toks, &mut i, Tok::Comma, 1),
            '[' => push(&mut toks, &mut i, Tok::LBracket, 1),
            ']' => push(&mut toks, &mut i, Tok::RBracket, 1),
            '(' => push(&mut toks, &mut i, Tok::LParen, 1),
            ')' => push(&mut toks, &mut i, Tok::RParen, 1),
            '+' => push(&mut toks, &mut i, Tok::Plus, 1),
            '-' => push(&mut toks, &mut i, Tok::Minus, 1),
            '*' => push(&mut toks, &mut i, Tok::Star, 1),
            '/' => push(&mut toks, &mut i, Tok::Slash, 1),
            '&' => push(&mut toks, &mut i, Tok::Amp, 1),
            '|' => push(&mut toks, &mut i, Tok::Pipe, 1),
            '^' => push(&mut toks, &mut i, Tok::Caret, 1),
            '~' => push(&mut toks, &mut i, Tok::Tilde, 1),
            '=' => push(&mut toks, &mut i, Tok::Equals, 1),
            '@' => push(&mut toks, &mut i, Tok::Here, 1),
            '<' if chars.get(i + 1) == Some(&'<') => push(&mut toks, &mut i, Tok::Shl, 2),
            '>' if chars.get(i + 1) == Some(&'>') => push(&mut toks, &mut i, Tok::Shr, 2),
            ':' if chars.get(i + 1) == Some(&':') => push(&mut toks, &mut i, Tok::DoubleColon, 2),
            ':' => push(&mut toks, &mut i, Tok::Colon, 1),
            other => return Err(format!("unexpected character '{other}'")),
        }
    }
    Ok(toks)
}

fn push(toks: &mut Vec<Tok>, i: &mut usize, tok: Tok, width: usize) {
    toks.push(tok);
    *i += width;
}

/// End of an identifier-like run of characters starting at `i`.
fn scan_word(chars: &[char], mut i: usize) -> usize {
    while i < chars.len()
        && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.')
    {
        i += 1;
    }
    i
}

/// End of a run of digits of `radix` (with `_` separators) starting at `i`.
fn scan_digits(chars: &[char], mut i: usize, radix: u32) -> usize {
    while i < chars.len() && (chars[i].is_digit(radix) || (chars[i] == '_' && i > 0)) {
        i += 1;
    }
    i
}

fn parse_digits(digits: &[char], radix: u32) -> Result<i64, String> {
    let text: String = digits.iter().filter(|c| **c != '_').collect();
    i64::from_str_radix(&text, radix).map_err(|_| format!("number '{text}' is too large"))
}

/// Reads a quoted string body starting after the opening quote; returns bytes and the index
/// after the closing quote.
fn lex_string(chars: &[char], mut i: usize, quote: char) -> Result<(Vec<u8>, usize), String> {
    let mut out = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        if c == quote {
            return Ok((out, i + 1));
        }
        let c = if c == '\\' {
            i += 1;
            match chars.get(i) {
                Some('n') => '\n',
                Some('r') => '\r',
                Some('t') => '\t',
                Some('0') => '\0',
                Some('\\') => '\\',
                Some('"') => '"',
                Some('\'') => '\'',
                Some(other) => return Err(format!("unknown escape '\\{other}'")),
                None => break,
            }
        } else {
            c
        };
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        i += 1;
    }
    Err("unterminated string".to_string())
}
