//! [`Model`]: which Game Boy the core is, and the `auto` choice ([`ModelChoice`]) from the
//! cartridge header's CGB flag (0x0143: 0x80 CGB-enhanced, 0xC0 CGB-only, bit 7 is what the
//! hardware reads).

use crate::cartridge::Cartridge;

/// The emulated model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Model {
    /// The original Game Boy (DMG-CPU B).
    #[default]
    Dmg,
    /// The Game Boy Color (see `docs/conformance.md` for the revision).
    Cgb,
}

impl Model {
    /// `DMG` or `CGB`: the name in files and messages.
    pub fn name(self) -> &'static str {
        match self {
            Model::Dmg => "DMG",
            Model::Cgb => "CGB",
        }
    }

    /// A model from its name (case-insensitive: `dmg`, `cgb`, `gbc`).
    pub fn from_name(s: &str) -> Option<Model> {
        match s.to_ascii_lowercase().as_str() {
            "dmg" | "gb" => Some(Model::Dmg),
            "cgb" | "gbc" => Some(Model::Cgb),
            _ => None,
        }
    }

    /// A stable id for files (0 DMG, 1 CGB).
    pub fn id(self) -> u8 {
        match self {
            Model::Dmg => 0,
            Model::Cgb => 1,
        }
    }

    /// The model of a stable id.
    pub fn from_id(id: u8) -> Option<Model> {
        match id {
            0 => Some(Model::Dmg),
            1 => Some(Model::Cgb),
            _ => None,
        }
    }
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which CGB CPU revision the CGB model is. The revisions differ in details a few test ROMs
/// see (SameBoy models them; the reference dumps and photos were taken on one revision each,
/// see `docs/conformance.md`); the default is the CPU CGB C.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CgbRevision {
    /// CPU CGB C: Mealybug Tearoom's `CPU CGB C` photos, cgb-acid-hell.
    #[default]
    C,
    /// CPU CGB D, as the CGB of AntonioND's gbc-hw-tests dumps behaves: 0xFEC0-0xFEFF fold onto
    /// 0xFEF0-0xFEFF, the LY=LYC flag keeps its value while LY changes, LY reads 0 on line 153
    /// an M-cycle later, and clearing LCDC.4 on a bitplane 1 read reads bitplane 0's address.
    D,
}

impl CgbRevision {
    /// `C` or `D`.
    pub fn name(self) -> &'static str {
        match self {
            CgbRevision::C => "C",
            CgbRevision::D => "D",
        }
    }

    /// A revision from its name (case-insensitive: `c`, `d`).
    pub fn from_name(s: &str) -> Option<CgbRevision> {
        match s.to_ascii_lowercase().as_str() {
            "c" => Some(CgbRevision::C),
            "d" => Some(CgbRevision::D),
            _ => None,
        }
    }

    /// A stable id for files (0 C, 1 D).
    pub fn id(self) -> u8 {
        match self {
            CgbRevision::C => 0,
            CgbRevision::D => 1,
        }
    }

    /// The revision of a stable id.
    pub fn from_id(id: u8) -> Option<CgbRevision> {
        match id {
            0 => Some(CgbRevision::C),
            1 => Some(CgbRevision::D),
            _ => None,
        }
    }
}

impl std::fmt::Display for CgbRevision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CPU CGB {}", self.name())
    }
}

/// A model, or `auto`: the CGB for cartridges whose header asks for it, else the DMG.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ModelChoice {
    /// From the header (the default).
    #[default]
    Auto,
    /// This model whatever the header says.
    Fixed(Model),
}

impl ModelChoice {
    /// Parse `auto`, `dmg` or `cgb`.
    pub fn parse(s: &str) -> Option<ModelChoice> {
        if s.eq_ignore_ascii_case("auto") {
            return Some(ModelChoice::Auto);
        }
        Model::from_name(s).map(ModelChoice::Fixed)
    }

    /// The model for `cart`.
    pub fn resolve(self, cart: &Cartridge) -> Model {
        match self {
            ModelChoice::Fixed(m) => m,
            ModelChoice::Auto if cart.header().cgb_flag & 0x80 != 0 => Model::Cgb,
            ModelChoice::Auto => Model::Dmg,
        }
    }
}

impl std::fmt::Display for ModelChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelChoice::Auto => f.write_str("auto"),
            ModelChoice::Fixed(m) => write!(f, "{}", m.name().to_ascii_lowercase()),
        }
    }
}
