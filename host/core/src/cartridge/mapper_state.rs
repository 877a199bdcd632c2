//! [`MapperState`]: what each mapper writes of itself into the state image, in a sized section
//! the cartridge frames (the cartridge's part of the image: module `state`).

use super::error::CartridgeError;

/// A mapper's own state in the image: its registers and whatever else it keeps (a clock, an
/// EEPROM), in a layout of its own. The cartridge frames it as a sized section and checks the
/// size before [`MapperState::read_state`] is called.
pub(crate) trait MapperState {
    /// Length of [`MapperState::write_state`]'s output: fixed for a given cartridge.
    fn state_len(&self) -> usize;
    /// Appends the state, exactly [`MapperState::state_len`] bytes.
    fn write_state(&self, out: &mut Vec<u8>);
    /// Restores what [`MapperState::write_state`] wrote, masking every value to its width.
    /// `data` is [`MapperState::state_len`] bytes (else an error; nothing changes on error).
    fn read_state(&mut self, data: &[u8]) -> Result<(), CartridgeError>;
}

/// `data` as an array of exactly `N` bytes, or the size error for the mapper `name`.
pub(crate) fn exact<const N: usize>(
    data: &[u8],
    name: &'static str,
) -> Result<[u8; N], CartridgeError> {
    data.try_into().map_err(|_| CartridgeError::StateSize {
        part: name,
        actual: data.len(),
        expected: N,
    })
}
