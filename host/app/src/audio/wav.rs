//! A 16-bit PCM stereo WAV file written as the run goes, made visible atomically: samples stream
//! into a temporary file beside the target, the header's sizes are patched at the end, and the
//! file is renamed over the target. A run that fails leaves no partial file behind (dropping an
//! unfinished writer removes its temporary file).

use anyhow::{Context, Result};
use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A WAV file being written.
pub struct WavWriter {
    out: BufWriter<File>,
    tmp: PathBuf,
    target: PathBuf,
    rate: u32,
    frames: u64,
    /// Renamed into place: nothing to clean up.
    done: bool,
}

impl Drop for WavWriter {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

impl WavWriter {
    /// Start writing `path` (16-bit stereo at `rate` Hz).
    pub fn create(path: &Path, rate: u32) -> Result<WavWriter> {
        let name = path
            .file_name()
            .with_context(|| format!("cannot write WAV {}: not a file name", path.display()))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(".tmp");
        let tmp = path.with_file_name(tmp_name);
        let file =
            File::create(&tmp).with_context(|| format!("cannot write WAV {}", path.display()))?;
        let mut w = WavWriter {
            out: BufWriter::new(file),
            tmp,
            target: path.to_path_buf(),
            rate,
            frames: 0,
            done: false,
        };
        if let Err(e) = w.write_header() {
            return Err(e).with_context(|| format!("cannot write WAV {}", path.display()));
        }
        Ok(w)
    }

    fn write_header(&mut self) -> std::io::Result<()> {
        let data = u32::try_from(self.frames * 4).unwrap_or(u32::MAX - 36);
        let rate = self.rate;
        let mut h = [0u8; 44];
        h[0..4].copy_from_slice(b"RIFF");
        h[4..8].copy_from_slice(&(36u32.saturating_add(data)).to_le_bytes());
        h[8..16].copy_from_slice(b"WAVEfmt ");
        h[16..20].copy_from_slice(&16u32.to_le_bytes());
        h[20..22].copy_from_slice(&1u16.to_le_bytes()); // PCM
        h[22..24].copy_from_slice(&2u16.to_le_bytes()); // stereo
        h[24..28].copy_from_slice(&rate.to_le_bytes());
        h[28..32].copy_from_slice(&(rate * 4).to_le_bytes());
        h[32..34].copy_from_slice(&4u16.to_le_bytes());
        h[34..36].copy_from_slice(&16u16.to_le_bytes());
        h[36..40].copy_from_slice(b"data");
        h[40..44].copy_from_slice(&data.to_le_bytes());
        self.out.write_all(&h)
    }

    /// Append one stereo sample.
    pub fn push(&mut self, l: i16, r: i16) -> Result<()> {
        let mut b = [0u8; 4];
        b[..2].copy_from_slice(&l.to_le_bytes());
        b[2..].copy_from_slice(&r.to_le_bytes());
        self.frames += 1;
        self.out
            .write_all(&b)
            .with_context(|| format!("cannot write WAV {}", self.target.display()))
    }

    /// Patch the header and move the file into place.
    pub fn finish(mut self) -> Result<()> {
        let target = self.target.clone();
        let result = (|| -> std::io::Result<()> {
            self.out.seek(SeekFrom::Start(0))?;
            self.write_header()?;
            self.out.flush()?;
            self.out.get_ref().sync_all()?;
            std::fs::rename(&self.tmp, &self.target)?;
            self.done = true;
            Ok(())
        })();
        result.with_context(|| format!("cannot write WAV {}", target.display()))
    }

    /// Give up: remove the temporary file (as dropping does).
    pub fn abandon(self) {}
}
