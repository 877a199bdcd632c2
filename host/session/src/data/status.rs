//! A script's status, as the session and its state files keep it.

/// What a script is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Running: its hooks and coroutine are called every frame.
    Running,
    /// Its main chunk returned; its hooks still run.
    Finished,
    /// It raised an error (message with the script position); nothing of it runs until a
    /// rewind to before the error, or a reload.
    Failed(String),
}
