//! Whether native file dialogs can open: the `rfd` crate shows them through the XDG desktop
//! portal (`org.freedesktop.portal.Desktop` on the D-Bus session bus). Without one (a bare X
//! server, Xvfb, CI, a container) the app asks for a typed path instead, and says why.
//!
//! The check runs once, on its own thread, when the window opens: no session bus address
//! means no portal at once; otherwise `dbus-send` (or `gdbus`) asks the bus whether the name
//! has an owner or can be activated, with a time limit. `GBHOST_NO_PORTAL` set to anything
//! skips native dialogs.

use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The portal's well-known bus name.
const PORTAL: &str = "org.freedesktop.portal.Desktop";
/// How long a bus query may take before the answer counts as "no".
const TIMEOUT: Duration = Duration::from_secs(3);

/// What is known of the portal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Portal {
    /// Still looking.
    Checking,
    /// Native dialogs can open.
    Present,
    /// No portal, and why.
    Absent(String),
}

/// The portal check: started once, polled by the window without blocking.
pub struct PortalCheck {
    state: Portal,
    rx: Option<Receiver<Result<(), String>>>,
}

impl PortalCheck {
    /// Start looking for the portal on a background thread.
    pub fn start() -> PortalCheck {
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("portal-check".into())
            .spawn(move || {
                let _ = tx.send(detect());
            });
        match spawned {
            Ok(_) => PortalCheck {
                state: Portal::Checking,
                rx: Some(rx),
            },
            Err(e) => PortalCheck::absent(format!("cannot start the check: {e}")),
        }
    }

    /// Known to be absent (tests, and when the check cannot run).
    pub fn absent(why: impl Into<String>) -> PortalCheck {
        PortalCheck {
            state: Portal::Absent(why.into()),
            rx: None,
        }
    }

    /// Known to be present (tests).
    #[cfg(test)]
    pub fn present() -> PortalCheck {
        PortalCheck {
            state: Portal::Present,
            rx: None,
        }
    }

    /// Found absent after all (a dialog through it failed).
    pub fn set_absent(&mut self, why: impl Into<String>) {
        *self = PortalCheck::absent(why);
    }

    /// What is known now (the answer is taken when it has come).
    pub fn state(&mut self) -> &Portal {
        if let Some(rx) = &self.rx {
            match rx.try_recv() {
                Ok(answer) => {
                    self.state = match answer {
                        Ok(()) => Portal::Present,
                        Err(why) => Portal::Absent(why),
                    };
                    self.rx = None;
                }
                Err(mpsc::TryRecvError::Empty) => {}
                Err(mpsc::TryRecvError::Disconnected) => {
                    self.state = Portal::Absent("the check stopped".into());
                    self.rx = None;
                }
            }
        }
        &self.state
    }
}

/// Whether the portal is on the session bus (blocking: run it off the UI thread).
fn detect() -> Result<(), String> {
    if std::env::var_os("GBHOST_NO_PORTAL").is_some() {
        return Err("GBHOST_NO_PORTAL is set".into());
    }
    let bus_env = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|v| !v.is_empty());
    let bus_socket = std::env::var_os("XDG_RUNTIME_DIR")
        .is_some_and(|d| std::path::Path::new(&d).join("bus").exists());
    if !bus_env && !bus_socket {
        return Err("no D-Bus session bus".into());
    }
    let owned = [
        "org.freedesktop.DBus.NameHasOwner",
        "org.freedesktop.DBus.ListActivatableNames",
    ];
    let mut asked = false;
    for method in owned {
        let args: Vec<String> = [
            "--session",
            "--print-reply",
            "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            method,
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .chain(
            method
                .ends_with("NameHasOwner")
                .then(|| format!("string:{PORTAL}")),
        )
        .collect();
        if let Some(out) = run("dbus-send", &args) {
            asked = true;
            let found = if method.ends_with("NameHasOwner") {
                out.contains("boolean true")
            } else {
                out.contains(PORTAL)
            };
            if found {
                return Ok(());
            }
        }
    }
    if !asked {
        let args: Vec<String> = [
            "call",
            "--session",
            "--dest",
            "org.freedesktop.DBus",
            "--object-path",
            "/org/freedesktop/DBus",
            "--method",
            "org.freedesktop.DBus.ListActivatableNames",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        match run("gdbus", &args) {
            Some(out) if out.contains(PORTAL) => return Ok(()),
            Some(_) => {}
            None => return Err("cannot ask the session bus (no dbus-send or gdbus)".into()),
        }
    }
    Err(format!("{PORTAL} is not on the session bus"))
}

/// Run `program` with `args` and return its output, or None when it cannot run, fails, or
/// takes longer than [`TIMEOUT`] (then it is killed).
fn run(program: &str, args: &[String]) -> Option<String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let t0 = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let out = child.wait_with_output().ok()?;
                return status
                    .success()
                    .then(|| String::from_utf8_lossy(&out.stdout).into_owned());
            }
            Ok(None) if t0.elapsed() < TIMEOUT => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a machine with no portal (this one, CI) the check ends, says no, and says why.
    #[test]
    fn the_check_ends_without_blocking_and_gives_a_reason() {
        let mut check = PortalCheck::start();
        let t0 = Instant::now();
        while *check.state() == Portal::Checking {
            assert!(t0.elapsed() < TIMEOUT * 3, "the check never ended");
            std::thread::sleep(Duration::from_millis(5));
        }
        if let Portal::Absent(why) = check.state() {
            assert!(!why.is_empty());
        }
        assert_eq!(
            *PortalCheck::absent("tests").state(),
            Portal::Absent("tests".into())
        );
    }
}
