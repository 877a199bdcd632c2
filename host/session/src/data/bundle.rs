//! A script's source as the session keeps it: [`Bundle`] (main text, the modules it may
//! `require`, the images it may draw) and [`Image`]. Its hash names a version of a script.

use super::hash::{SourceHash, fnv1a, source_hash};

/// A version of a script: its main source and the modules of its folder it may `require`
/// (module name, as in `require("lib.vec")` for `lib/vec.lua`, and text).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bundle {
    /// The script's own text.
    pub main: String,
    /// The modules it may `require`.
    pub modules: Vec<(String, String)>,
    /// The images of its folder `gui.image` may draw, by file name (`logo.png`).
    pub images: Vec<(String, Image)>,
}

/// A decoded image: width, height and RGBA bytes (the host decodes the files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA, row-major, `width * height * 4` bytes.
    pub rgba: std::sync::Arc<[u8]>,
}

impl Bundle {
    /// A script without modules.
    pub fn new(main: &str) -> Bundle {
        Bundle {
            main: main.to_owned(),
            modules: Vec::new(),
            images: Vec::new(),
        }
    }

    /// The version's hash: the main text and every module's name and text.
    pub fn hash(&self) -> SourceHash {
        let mut text = self.main.clone();
        for (name, module) in &self.modules {
            text.push('\0');
            text.push_str(name);
            text.push('\0');
            text.push_str(module);
        }
        let mut h = source_hash(&text);
        for (name, image) in &self.images {
            h = h.rotate_left(5)
                ^ source_hash(name)
                ^ fnv1a(&image.rgba)
                ^ (u64::from(image.width) << 32 | u64::from(image.height));
        }
        h
    }
}
