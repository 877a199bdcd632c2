//! The console's VM: a Lua VM with the scripts' API (the native prelude), evaluating one line
//! at a time with whatever [`Api`] context its caller lends it, as an expression first
//! (`return LINE`), else as a statement. It knows nothing of sessions: the caller decides what
//! the context lets the line change (the session collects its writes as logged pokes).

use lua_rollback::{Value, Vm, VmConfig};

use super::{Api, PRELUDE, register};

/// Arena of the console VM.
const CONSOLE_ARENA: usize = 8 << 20;
/// Lua instructions one console line may run.
const CONSOLE_BUDGET: u64 = 50_000_000;

/// The console's VM.
pub struct Console {
    vm: Vm,
}

impl Console {
    /// A fresh console VM with the native API (the prelude runs in `api`'s context).
    pub fn new(api: &mut Api<'_>) -> Result<Console, String> {
        let config = VmConfig {
            arena_capacity: CONSOLE_ARENA,
            instruction_budget: Some(CONSOLE_BUDGET),
            ..VmConfig::default()
        };
        let mut vm = register(Vm::builder(config))
            .build()
            .map_err(|e| format!("cannot create the console's Lua VM: {e}"))?;
        vm.exec_with(api, "=prelude", PRELUDE)
            .map_err(|e| format!("the console's Lua API did not load: {e}"))?;
        Ok(Console { vm })
    }

    /// Evaluate `line`: what it printed, then the values it gave (`nil`, numbers with their
    /// hex, strings quoted, tab-separated), or `error: …`.
    pub fn eval(&mut self, api: &mut Api<'_>, line: &str) -> String {
        let expr = format!("return {line}");
        let result = match self.vm.exec_with(api, "=console", &expr) {
            Err(e) if is_syntax_error(&e.to_string()) => self.vm.exec_with(api, "=console", line),
            other => other,
        };
        let mut out = String::from_utf8_lossy(&self.vm.take_output()).into_owned();
        match result {
            Ok(values) => {
                let shown: Vec<String> = values.iter().map(show).collect();
                out.push_str(&shown.join("\t"));
            }
            Err(e) => out.push_str(&format!("error: {e}")),
        }
        out.trim_end().to_owned()
    }
}

fn is_syntax_error(message: &str) -> bool {
    message.contains("syntax error") || message.contains("near")
}

/// A value as the console shows it.
fn show(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => {
            if (0..=0xFFFF).contains(i) && *i > 9 {
                format!("{i} (0x{i:X})")
            } else {
                i.to_string()
            }
        }
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{:?}", String::from_utf8_lossy(s)),
        Value::Other(t) => format!("<{t}>"),
    }
}
