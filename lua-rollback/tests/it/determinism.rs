//! Cross-process determinism canary: two separate processes must see the same `pairs()` order
//! over string keys and the same `table.sort` order for equal keys. This fails when Lua was
//! built without the fixed `luai_makeseed` / `l_randomizePivot` (CFLAGS in the workspace's
//! `.cargo/config.toml`), because the string hash seed then mixes the clock and addresses.

use std::process::Command;

use lua_rollback::{Vm, VmConfig};

const CHILD_ENV: &str = "LUA_ROLLBACK_DETERMINISM_CHILD";
/// A fixed arena address for the address-dependent part of the probe.
const FIXED: usize = 0x5a5a_0000_0000;

const PROBE: &str = r#"
local words = {"alpha","beta","gamma","delta","eps","zeta","eta","theta","iota","kappa",
  "lambda","mu","nu","xi","omicron","pi","rho","sigma","tau","upsilon","phi","chi","psi","omega"}
local t = {}
for _, w in ipairs(words) do t[w] = true; t[w .. "_" .. #w] = #w end
local keys = {}
for k in pairs(t) do keys[#keys + 1] = k end
local recs = {}
for i = 1, 5000 do recs[i] = {k = (i * 7919) % 3, i = i} end
table.sort(recs, function(a, b) return a.k < b.k end)
local h = 0
for j = 1, #recs do h = (h * 31 + recs[j].i) % 2147483647 end
return table.concat(keys, ",") .. " | sort " .. h .. " | random " .. math.random(1e9)
"#;

fn probe(fixed: Option<usize>) -> String {
    let mut vm = Vm::new(VmConfig {
        fixed_address: fixed,
        ..VmConfig::default()
    })
    .unwrap();
    let mut out = vm.exec("=probe", PROBE).unwrap()[0]
        .as_str()
        .unwrap()
        .to_string();
    if fixed.is_some() {
        // With a fixed arena address even addresses agree across processes.
        let r = vm
            .exec(
                "=addr",
                "local a, b = {}, {} return tostring(a) .. string.format(' %p', b)",
            )
            .unwrap();
        out.push_str(" | ");
        out.push_str(r[0].as_str().unwrap());
    }
    out
}

/// Runs only as a child process: prints the probe.
#[test]
fn child_probe() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let fixed = std::env::var(CHILD_ENV).unwrap() == "fixed";
    println!("PROBE<{}>", probe(fixed.then_some(FIXED)));
}

/// The test harness's name of [`child_probe`]: its module path without the crate name.
fn child_probe_name() -> String {
    match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::child_probe"),
        None => "child_probe".to_string(),
    }
}

fn run_child(mode: &str) -> String {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &child_probe_name(),
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, mode)
        .output()
        .unwrap();
    assert!(out.status.success(), "child failed: {out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let start = stdout.find("PROBE<").expect("no probe output") + 6;
    let end = stdout[start..].find('>').unwrap() + start;
    stdout[start..end].to_string()
}

#[test]
fn pairs_order_is_the_same_in_separate_processes() {
    let a = run_child("plain");
    let b = run_child("plain");
    assert_eq!(
        a, b,
        "pairs()/sort order differs between processes: is CFLAGS set?"
    );
    assert_eq!(a, probe(None), "differs from this process");
    assert!(a.contains("alpha") && a.contains("sort"));
}

#[test]
fn fixed_address_makes_addresses_agree_across_processes() {
    let a = run_child("fixed");
    let b = run_child("fixed");
    assert_eq!(a, b);
    assert!(a.contains("table: 0x5a5a"), "{a}");
}
