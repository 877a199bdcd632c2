//! The user's state key for this process ([`gb_session::keys`]): loaded (or created) once; if
//! that fails, one warning on stderr and the sessions go without it (state files then carry no
//! script images, and every load restarts the scripts from their `persist` data).

use std::sync::OnceLock;

/// The key every session of this process seals and checks script images with.
pub fn get() -> Option<gb_session::keys::ImageKey> {
    static KEY: OnceLock<Option<gb_session::keys::ImageKey>> = OnceLock::new();
    KEY.get_or_init(|| {
        // The app's own unit tests (the window driven in-process) keep theirs in the temporary
        // directory, never in the user's home.
        #[cfg(test)]
        let key = gb_session::keys::load_or_create(
            &std::env::temp_dir().join(format!("gbhost-test-{}.key", std::process::id())),
        );
        #[cfg(not(test))]
        let key = gb_session::keys::user_key();
        match key {
            Ok(k) => Some(k),
            Err(e) => {
                eprintln!(
                    "warning: {e}; state files will not restore scripts exactly (they restart \
                     from their persist data)"
                );
                None
            }
        }
    })
    .clone()
}
