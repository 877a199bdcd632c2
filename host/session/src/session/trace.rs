//! A frame's digest, for comparing two runs line by line (`gbhost headless --trace`, `movie
//! play --trace`, the tests of scripts across processes): the frame, a hash of the core's
//! state image, of each script's draw list and of each script VM's canonical image, then the
//! frame's console lines. Two runs in the same state give the same line, whatever process or
//! build made them.

use super::Session;

impl Session {
    /// The digest line of the frame just run, followed by `logs` (the frame's console lines)
    /// as `log: …` lines; ends with a newline.
    pub fn trace_line(&mut self, logs: &[String]) -> String {
        let draw: Vec<String> = self
            .draw_lists()
            .map(|(slot, list)| {
                format!(
                    "{slot}:{:016x}",
                    crate::data::fnv1a(format!("{list:?}").as_bytes())
                )
            })
            .collect();
        let vm: Vec<String> = self
            .script_image_hashes()
            .into_iter()
            .map(|(slot, h)| match h {
                Ok(h) => format!("{slot}:{h:016x}"),
                Err(e) => format!("{slot}:({e})"),
            })
            .collect();
        let mut line = format!(
            "frame {} core={:016x} draw={} vm={}\n",
            self.timeline.frame,
            self.machine.image_hash(),
            draw.join(","),
            vm.join(",")
        );
        for l in logs {
            line.push_str("log: ");
            line.push_str(l);
            line.push('\n');
        }
        line
    }
}
