//! Plain Rust values crossing the VM boundary.

/// A Lua value as plain Rust data. Arguments of every kind but [`Value::Other`] are passed to
/// Lua as themselves (`Other` is passed as `nil`); results that are tables, functions, threads
/// or userdata come back as `Other` with their type name.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `nil` (also an absent value).
    Nil,
    /// A boolean.
    Boolean(bool),
    /// An integer (Lua 5.4 integer subtype).
    Integer(i64),
    /// A float.
    Number(f64),
    /// A string, as its bytes (Lua strings need not be UTF-8).
    String(Vec<u8>),
    /// A value with no plain Rust form: its Lua type name.
    Other(&'static str),
}

impl Value {
    /// The string as UTF-8 text, if this is a string that is valid UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(b) => std::str::from_utf8(b).ok(),
            _ => None,
        }
    }

    /// The integer, if this is an integer.
    pub fn as_integer(&self) -> Option<i64> {
        match self {
            Value::Integer(i) => Some(*i),
            _ => None,
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.as_bytes().to_vec())
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Integer(i)
    }
}

impl From<f64> for Value {
    fn from(n: f64) -> Self {
        Value::Number(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Boolean(b)
    }
}

/// What a coroutine resume ended with.
#[derive(Clone, Debug, PartialEq)]
pub enum Resume {
    /// The coroutine yielded these values and can be resumed again.
    Yielded(Vec<Value>),
    /// The coroutine's function returned these values; the coroutine is gone.
    Returned(Vec<Value>),
}
