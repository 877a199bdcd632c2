//! The calls about windows: a script's own windows changed (its forms and text buffers, whose
//! data lives in its arena: `ui.lua`), it reads the host's keys and mouse, or it asks the app's
//! window for something (`client.*`). Each only leaves a [`Request`] for the session.

use std::path::{Component, Path};

use lua_rollback::Value;

use super::args::text_arg;
use super::context::{Api, ClientRequest, Request};
use super::spec::id;

/// A screenshot path a script may write: relative, inside its folder (no `..`, no root, no
/// drive), ending in `.png`.
pub fn screenshot_path(path: &str) -> Result<String, String> {
    let p = Path::new(path);
    let inside = !path.is_empty()
        && p.components().all(|c| matches!(c, Component::Normal(_)))
        && !path.contains(':')
        && !path.starts_with(['/', '\\']);
    if !inside {
        return Err(format!(
            "client.screenshot: '{path}' is outside the script's folder (give a relative path \
             such as \"shots/frame.png\")"
        ));
    }
    if !path.to_ascii_lowercase().ends_with(".png") {
        return Err(format!(
            "client.screenshot: '{path}' must end in .png (screenshots are PNG files)"
        ));
    }
    Ok(path.to_owned())
}

impl Api<'_> {
    /// The window calls. Returns false for an id that is not one of them.
    pub(super) fn call_window(
        &mut self,
        id: u32,
        args: &[Value],
        _ret: &mut Vec<Value>,
    ) -> Result<bool, String> {
        match id {
            id::UI_CHANGED => self.requests.push(Request::Ui),
            id::INPUT_USED => {
                if !self.requests.contains(&Request::HostInput) {
                    self.requests.push(Request::HostInput);
                }
            }
            id::CLIENT => {
                let what = text_arg(args, 0, "gbhost.client")?;
                let req = match what.as_str() {
                    "pause" => ClientRequest::Pause,
                    "unpause" => ClientRequest::Unpause,
                    "togglepause" => ClientRequest::TogglePause,
                    "reboot" => ClientRequest::Reboot,
                    "screenshot" => ClientRequest::Screenshot(screenshot_path(&text_arg(
                        args,
                        1,
                        "client.screenshot",
                    )?)?),
                    _ => return Err(format!("gbhost.client: unknown request '{what}'")),
                };
                self.requests.push(Request::Client(req));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::screenshot_path;

    #[test]
    fn screenshots_stay_in_the_scripts_folder() {
        assert!(screenshot_path("shot.png").is_ok());
        assert!(screenshot_path("shots/a.PNG").is_ok());
        for bad in [
            "",
            "../x.png",
            "/tmp/x.png",
            "a/../../x.png",
            "C:\\x.png",
            "\\\\server\\x.png",
            "x.txt",
        ] {
            assert!(screenshot_path(bad).is_err(), "{bad}");
        }
    }
}
