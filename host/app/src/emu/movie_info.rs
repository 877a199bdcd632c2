//! A movie's authors and description from the app (the command line has `movie record
//! --author`): asked when a recording starts, and editable while one is recorded. They live
//! in the movie's header (`MovieHeader::authors`, and the `description` key of its metadata).
//!
//! The header is written by the recorder that `Tas` holds, which the app cannot reach: a
//! change closes the recording (read-only), appends the new header to the file, and records
//! on from the same frame (read-write again, no rerecord: nothing is cut). A movie that plays
//! read-only is not written: its header changes once it is switched to read-write.
//!
//! Also here: a BizHawk movie (`.bk2`) dropped on the window, converted and played.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use gb_session::movie::Movie;
use gb_session::movie::container::Writer;

use super::machine::Emu;
use super::types::{MovieInfo, RomSource};

/// Append a header with `info` to the movie file at `path` (it must not be open for
/// recording).
fn write_info(path: &Path, info: &MovieInfo) -> Result<()> {
    let movie = Movie::open(path).with_context(|| format!("{}", path.display()))?;
    let mut header = movie.header.clone();
    drop(movie);
    header.authors.clone_from(&info.authors);
    if info.description.is_empty() {
        header.metadata.remove(MovieInfo::DESCRIPTION_KEY);
    } else {
        header.metadata.insert(
            MovieInfo::DESCRIPTION_KEY.to_owned(),
            info.description.clone(),
        );
    }
    let mut w = Writer::resume(path).with_context(|| format!("cannot write {}", path.display()))?;
    w.set_header(&header.encode())?;
    w.sync()?;
    Ok(())
}

impl Emu {
    /// Play a BizHawk movie: converted first (as `gbhost movie convert` does, on the running
    /// ROM with its patches) into a `.gbm` in the temporary folder, which then plays
    /// read-only.
    pub fn movie_play_bk2(&mut self, bk2: &Path) -> Result<String> {
        let Some(file) = self.game.rom.file() else {
            bail!("open the movie's ROM first: a .bk2 plays on the running ROM");
        };
        let stem = bk2
            .file_stem()
            .map_or_else(|| "movie".into(), |s| s.to_string_lossy().into_owned());
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let out =
            std::env::temp_dir().join(format!("gbhost-{}-{nanos}-{stem}.gbm", std::process::id()));
        // A linked pair's movie plays on the running pair: its second ROM file.
        let link = match &self.settings.link {
            None => None,
            Some(RomSource::File(path)) => Some(path.as_path()),
            Some(RomSource::FileWith(second)) => Some(second.path.as_path()),
            Some(RomSource::Demo | RomSource::LinkDemo) => {
                bail!("a .bk2 of a linked pair plays on two ROM files, not the built-in demo")
            }
        };
        let options = crate::movie_convert::Options {
            rom: Some(&file.path),
            link,
            boot_rom: None,
            force: false,
            patches: &file.patches,
        };
        crate::movie_convert::to_gbm(bk2, &out, &options)
            .with_context(|| format!("cannot convert {}", bk2.display()))?;
        let played = self.movie_play(&out)?;
        Ok(format!(
            "converted {} to {}; {played}",
            bk2.display(),
            out.display()
        ))
    }

    /// Record a new movie (see [`Emu::movie_record`]) with these authors and description.
    pub fn movie_record_with(
        &mut self,
        path: &Path,
        here: bool,
        info: MovieInfo,
    ) -> Result<String> {
        let msg = self.movie_record(path, !here)?;
        self.movie.info = Some((path.to_owned(), MovieInfo::default()));
        if info.is_empty() {
            return Ok(msg);
        }
        let more = self.set_movie_info(info)?;
        Ok(format!("{msg}; {more}"))
    }

    /// Set the recording movie's authors and description.
    pub fn set_movie_info(&mut self, info: MovieInfo) -> Result<String> {
        match &self.movie.tas {
            None => bail!("no movie is open (a recording asks for its authors when it starts)"),
            Some(t) if !t.is_recording() => bail!(
                "the movie plays read-only and its file is not written: switch it to read-write \
                 (uncheck Read-only), then set its authors and description"
            ),
            Some(_) => {}
        }
        let Some(tas) = self.movie.tas.take() else {
            bail!("no movie is open");
        };
        let path: PathBuf = tas.path().to_owned();
        let playing = tas.read_only()?;
        let written = write_info(&path, &info);
        // Record on from here whatever happened to the header.
        let tas = playing.read_write(&mut self.session)?;
        self.movie.tas = Some(tas);
        written?;
        let said = format!(
            "{}: authors {}; description {}",
            path.display(),
            if info.authors.is_empty() {
                "none".to_owned()
            } else {
                info.authors.join(", ")
            },
            if info.description.is_empty() {
                "none".to_owned()
            } else {
                format!("\"{}\"", info.description)
            }
        );
        self.movie.info = Some((path, info));
        Ok(said)
    }
}
