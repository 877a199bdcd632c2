//! `gbhost`'s integration tests, in one test binary: the real binary run as users run it (the
//! headless contract, scripts and the sync test, movies and state files across processes,
//! the app's command line: no display, piped and tmux-driven REPLs, battery saves).

mod app_cli;
mod bk2_cli;
mod cgb_cli;
mod cli;
mod common;
mod debugger_cli;
mod editor_bk2_cli;
mod link_bk2_cli;
mod link_cli;
mod movie_cli;
mod patch_cli;
mod patch_flag_cli;
mod portable_cli;
mod saves_cli;
mod session_cli;
mod wild_cli;
