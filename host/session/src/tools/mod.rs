//! The player's and hacker's tools over a machine: RAM search ([`search`]), the RAM watch
//! list and BizHawk's `.wch` files ([`watchlist`]), and cheat codes ([`cheats`]: Game Genie
//! and GameShark decoders and the list in effect, which the session applies).

pub mod cheats;
pub mod search;
pub mod watchlist;
