//! The integration tests of `lua-rollback`, linked as one test binary. Each module used to be
//! a binary of its own, linked separately against the crate and Lua (and `common` compiled
//! into four of them); one binary links once, and its tests share one parallel run.
//!
//! Tests run in parallel threads of one process, so none may rely on process-wide state: the
//! ones that map an arena at a fixed address each use an address of their own, and the
//! cross-process determinism canary ([`determinism`]) runs itself as child processes, naming
//! its probe by its full test path.

mod api;
mod codec;
mod common;
mod determinism;
mod failure;
mod host;
mod image;
mod sandbox;
mod sync;
mod tracking;
