//! The output ring: a fixed number of stereo samples between the APU and the host, which drains
//! it every frame ([`crate::Gb::drain_audio`]). When nobody drains it, the oldest samples are
//! dropped: it never grows.

/// One stereo sample: left, right.
pub type Sample = (i16, i16);

/// Capacity of the output ring, in stereo samples (125 ms at [`super::SAMPLE_RATE`]).
pub const RING_CAPACITY: usize = 8192;

/// A fixed-capacity ring of output samples; the oldest are dropped when it is full.
#[derive(Clone, Debug)]
pub struct SampleRing {
    buf: Box<[Sample; RING_CAPACITY]>,
    /// Index of the oldest sample.
    start: usize,
    /// Samples held.
    len: usize,
    /// Samples dropped because nobody drained them.
    dropped: u64,
}

impl Default for SampleRing {
    fn default() -> Self {
        SampleRing {
            buf: Box::new([(0, 0); RING_CAPACITY]),
            start: 0,
            len: 0,
            dropped: 0,
        }
    }
}

impl SampleRing {
    #[inline]
    pub(super) fn push(&mut self, s: Sample) {
        let at = (self.start + self.len) % RING_CAPACITY;
        self.buf[at] = s;
        if self.len == RING_CAPACITY {
            self.start = (self.start + 1) % RING_CAPACITY;
            self.dropped += 1;
        } else {
            self.len += 1;
        }
    }

    /// Push `n` copies of `s` (whole samples between two edges).
    #[inline]
    pub(super) fn push_repeat(&mut self, s: Sample, mut n: usize) {
        while n > 0 {
            let at = (self.start + self.len) % RING_CAPACITY;
            let run = n.min(RING_CAPACITY - at);
            self.buf[at..at + run].fill(s);
            let len = self.len + run;
            if len > RING_CAPACITY {
                let over = len - RING_CAPACITY;
                self.start = (self.start + over) % RING_CAPACITY;
                self.dropped += over as u64;
                self.len = RING_CAPACITY;
            } else {
                self.len = len;
            }
            n -= run;
        }
    }

    /// Forget the samples after the first `n` waiting (a linked pair's side run again from
    /// an earlier moment makes them again).
    pub fn keep_first(&mut self, n: usize) {
        self.len = self.len.min(n);
    }

    /// Samples waiting.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No samples waiting.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Samples dropped so far because the ring was full.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Move the oldest samples into `out`; returns how many were written.
    pub fn drain_into(&mut self, out: &mut [Sample]) -> usize {
        let n = self.len.min(out.len());
        let first = n.min(RING_CAPACITY - self.start);
        out[..first].copy_from_slice(&self.buf[self.start..self.start + first]);
        out[first..n].copy_from_slice(&self.buf[..n - first]);
        self.start = (self.start + n) % RING_CAPACITY;
        self.len -= n;
        n
    }

    /// Forget the waiting samples.
    pub fn clear(&mut self) {
        self.start = 0;
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_drops_the_oldest_when_full_and_drains_in_order() {
        let mut r = SampleRing::default();
        for i in 0..RING_CAPACITY + 10 {
            r.push((i as i16, 0));
        }
        assert_eq!(r.len(), RING_CAPACITY);
        assert_eq!(r.dropped(), 10);
        let mut out = vec![(0, 0); 5];
        assert_eq!(r.drain_into(&mut out), 5);
        assert_eq!(out[0].0, 10);
        assert_eq!(out[4].0, 14);
        let mut all = vec![(0, 0); RING_CAPACITY];
        assert_eq!(r.drain_into(&mut all), RING_CAPACITY - 5);
        assert_eq!(all[0].0, 15);
        assert!(r.is_empty());
    }
}
