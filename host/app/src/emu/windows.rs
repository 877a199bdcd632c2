//! The emulation thread's side of scripts' windows: the user's actions on a script's form and
//! the host's keys and mouse, handed to the session as logged input, and what scripts ask of
//! the app's window (`client.pause`, `client.screenshot`, …), carried out after a live frame.

use gb_session::api::ClientRequest;
use gb_session::data::FormValue;

use super::machine::Emu;

impl Emu {
    /// The user acted on a control of script `slot`'s form (logged; applied at the next
    /// frame's start).
    pub(crate) fn form_event(&mut self, slot: u32, control: u32, value: FormValue) {
        self.session.form_event(slot, control, value);
    }

    /// Before a live frame: log the host's keys and mouse, if a script reads them.
    pub(crate) fn log_host_input(&mut self) {
        let playing = self.movie.tas.as_ref().is_some_and(|t| !t.is_recording());
        if self.session.wants_host_input() && !playing {
            self.session.set_host_input(self.input.host.clone());
        }
    }

    /// After a live frame: what the scripts asked of the window.
    pub(crate) fn serve_client_requests(&mut self) {
        for (slot, req) in self.session.take_client_requests() {
            match req {
                ClientRequest::Pause => self.pacing.paused = true,
                ClientRequest::Unpause => self.pacing.paused = false,
                ClientRequest::TogglePause => self.pacing.paused = !self.pacing.paused,
                ClientRequest::Screenshot(rel) => {
                    let msg = self.script_screenshot(slot, &rel);
                    self.say(msg);
                }
                ClientRequest::Reboot => match self.restart() {
                    Ok(()) => self.say("reset (client.reboot_core)"),
                    Err(e) => self.say(format!("client.reboot_core: {e:#}")),
                },
                ClientRequest::Tas(req) => match &mut self.editor {
                    Some(o) => {
                        o.version += 1;
                        o.input_version += 1;
                        o.stalled = false;
                        if let Err(e) = o.ed.apply(&mut self.session, &req) {
                            self.say(format!("tastudio: {e}"));
                        }
                    }
                    None => self.say("tastudio: no TAS editor is open (`movie edit`)"),
                },
            }
        }
    }

    /// Write the screen as a PNG at `rel` in script `slot`'s folder (the session checked that
    /// `rel` stays inside it).
    fn script_screenshot(&self, slot: u32, rel: &str) -> String {
        let dir = self
            .scripts
            .entries
            .iter()
            .find(|e| e.slot == Some(slot))
            .and_then(|e| e.path.as_ref())
            .and_then(|p| p.parent());
        let Some(dir) = dir else {
            return format!("client.screenshot: the script has no folder to write '{rel}' in");
        };
        let path = dir.join(rel);
        if let Some(parent) = path.parent()
            && let Err(e) = std::fs::create_dir_all(parent)
        {
            return format!(
                "client.screenshot: cannot create '{}': {e}",
                parent.display()
            );
        }
        let rgb = crate::screenshot::to_rgb(self.session.picture());
        match crate::screenshot::write_rgb(&path, &rgb) {
            Ok(()) => format!("screenshot written to {}", path.display()),
            Err(e) => format!("client.screenshot: {e:#}"),
        }
    }
}
