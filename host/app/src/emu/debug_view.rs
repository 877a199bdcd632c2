//! What the Debugger window shows, built by the emulation thread while the window is open:
//! where the machine is, the code around PC (with the ROM's symbols), the registers and the
//! breakpoints. Plain data; `debugger.rs` builds it.

/// One line of the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeLine {
    /// A label that starts here (from the `.sym` file).
    pub label: Option<String>,
    /// The address.
    pub addr: u16,
    /// Its bytes, in hex.
    pub bytes: String,
    /// The instruction.
    pub text: String,
    /// PC is here.
    pub is_pc: bool,
    /// An execute breakpoint is here.
    pub has_break: bool,
}

/// The Debugger window's view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DebugView {
    /// Where the machine is (`at 0150 Main: call Count (frame 12, mid-frame, …)`).
    pub at: String,
    /// The code around PC.
    pub listing: Vec<CodeLine>,
    /// The CPU registers and flags, one line.
    pub regs: String,
    /// The breakpoints, as `info break` lists them.
    pub breakpoints: Vec<String>,
    /// Stopped in the middle of a frame.
    pub mid_frame: bool,
    /// The call stack, as `bt` gives it.
    pub stack: Vec<String>,
}
