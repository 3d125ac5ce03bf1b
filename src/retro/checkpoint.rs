//! The progress file of an out-of-core layer ([`super::outcore`]): which layer and plan its
//! work directory holds, the last finished step, and the files that step's state is in. It is
//! small text, replaced atomically (temporary, fsync, rename), so a stopped build finds either
//! the previous checkpoint or the new one, never a mixture; a build that finds one for another
//! plan empties the directory and starts the layer over.

use crate::store::layer_file::checksum;
use crate::store::write_atomic;
use std::io;
use std::path::{Path, PathBuf};

/// The file's name in the work directory.
pub const FILE: &str = "progress";

/// What a work directory is for: the layer, its positions and partitions, how its lower
/// layers are read, and the game (name, rules, index, lower layers' checksums). A checkpoint
/// of any other plan is not resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub layer: usize,
    pub size: u64,
    pub parts: u64,
    pub lookups: String,
    pub identity: String,
}

/// The next step of a build: the forward pass of partition `next`, or the visits of threshold
/// `t` (0: every threshold is done), in its first pass (every partition, from its seeds) or a
/// later one (the partitions with updates pending), from partition `next` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Forward { next: u64 },
    Threshold { t: i32, first: bool, next: u64 },
}

/// A consistent state of a build: its next step, the positions decided so far (for progress),
/// the generation of each partition's state file, and each partition's inbox as `(generation,
/// bytes)`: the updates pending are the first `bytes` of that file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub plan: Plan,
    pub step: Step,
    pub decided: u64,
    pub states: Vec<u64>,
    pub inboxes: Vec<(u64, u64)>,
}

impl Checkpoint {
    /// The first checkpoint of `plan`: nothing done.
    pub fn start(plan: Plan) -> Checkpoint {
        let k = plan.parts as usize;
        Checkpoint { plan, step: Step::Forward { next: 0 }, decided: 0, states: vec![0; k], inboxes: vec![(0, 0); k] }
    }

    fn body(&self) -> String {
        let p = &self.plan;
        let step = match self.step {
            Step::Forward { next } => format!("forward {next}"),
            Step::Threshold { t, first, next } => {
                format!("threshold {t} {} {next}", if first { "first" } else { "later" })
            }
        };
        let states: Vec<String> = self.states.iter().map(u64::to_string).collect();
        let inboxes: Vec<String> = self.inboxes.iter().map(|(g, b)| format!("{g}:{b}")).collect();
        format!(
            "mancala out-of-core layer progress 1\nlayer {}\npositions {}\nparts {}\nlookups {}\nidentity {}\n\
             step {step}\ndecided {}\nstates {}\ninboxes {}\n",
            p.layer,
            p.size,
            p.parts,
            p.lookups,
            p.identity,
            self.decided,
            states.join(" "),
            inboxes.join(" ")
        )
    }

    /// The file's text: the body and its crc32 (a file cut short or edited is not resumed).
    pub fn to_text(&self) -> String {
        let body = self.body();
        format!("{body}crc32 {:08x}\n", checksum(body.as_bytes()))
    }

    /// The checkpoint a text holds; `None` when it is not one (damaged, cut short, another
    /// version).
    pub fn parse(text: &str) -> Option<Checkpoint> {
        let (body, crc) = text.strip_suffix('\n')?.rsplit_once('\n')?;
        let body = format!("{body}\n");
        if crc.strip_prefix("crc32 ")? != format!("{:08x}", checksum(body.as_bytes())) {
            return None;
        }
        let mut lines = body.lines();
        if lines.next()? != "mancala out-of-core layer progress 1" {
            return None;
        }
        let mut field = |key: &str| lines.next()?.strip_prefix(key)?.strip_prefix(' ').map(str::to_string);
        let layer = field("layer")?.parse().ok()?;
        let size = field("positions")?.parse().ok()?;
        let parts = field("parts")?.parse().ok()?;
        let lookups = field("lookups")?;
        let identity = field("identity")?;
        let step = field("step")?;
        let decided = field("decided")?.parse().ok()?;
        let states = field("states")?.split(' ').map(|s| s.parse().ok()).collect::<Option<Vec<u64>>>()?;
        let inboxes = field("inboxes")?
            .split(' ')
            .map(|s| s.split_once(':').and_then(|(g, b)| Some((g.parse().ok()?, b.parse().ok()?))))
            .collect::<Option<Vec<(u64, u64)>>>()?;
        let words: Vec<&str> = step.split(' ').collect();
        let step = match words[..] {
            ["forward", next] => Step::Forward { next: next.parse().ok()? },
            ["threshold", t, first, next] => Step::Threshold {
                t: t.parse().ok()?,
                first: match first {
                    "first" => true,
                    "later" => false,
                    _ => return None,
                },
                next: next.parse().ok()?,
            },
            _ => return None,
        };
        let k = parts as usize;
        if states.len() != k || inboxes.len() != k {
            return None;
        }
        Some(Checkpoint { plan: Plan { layer, size, parts, lookups, identity }, step, decided, states, inboxes })
    }

    /// Replace the progress file in `work` with this checkpoint (atomically and durably: what
    /// it names must already be durable).
    pub fn write(&self, work: &Path) -> io::Result<()> {
        write_atomic(&path(work), self.to_text().as_bytes())
    }

    /// The checkpoint in `work`: `Ok(None)` when there is none, `Err(the text)` when the file
    /// is there but holds no checkpoint.
    pub fn read(work: &Path) -> io::Result<Result<Option<Checkpoint>, ()>> {
        match std::fs::read(path(work)) {
            Ok(bytes) => Ok(std::str::from_utf8(&bytes).ok().and_then(Checkpoint::parse).map(Some).ok_or(())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Ok(None)),
            Err(e) => Err(e),
        }
    }

    /// Where the build stands, for the line a resumed build prints.
    pub fn describe(&self) -> String {
        let parts = self.plan.parts;
        match self.step {
            Step::Forward { next } => format!("the forward pass at partition {} of {parts}", next + 1),
            Step::Threshold { t: 0, .. } => "after the last threshold (writing the values)".to_string(),
            Step::Threshold { t, first, next } => {
                let pass = if first { "first pass" } else { "pending updates" };
                if next == parts {
                    format!("threshold {t} ({pass} done)")
                } else {
                    format!("threshold {t} (partition {} of {parts}, {pass})", next + 1)
                }
            }
        }
    }
}

/// The progress file of the work directory `work`.
pub fn path(work: &Path) -> PathBuf {
    work.join(FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(parts: u64) -> Plan {
        Plan {
            layer: 30,
            size: 1 << 33,
            parts,
            lookups: "streamed".into(),
            identity: "oware gs-no-capture reachable lower 1234abcd".into(),
        }
    }

    #[test]
    fn a_checkpoint_round_trips_through_its_file() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Checkpoint::read(dir.path()).unwrap(), Ok(None));
        let mut c = Checkpoint::start(plan(4));
        for step in [
            Step::Forward { next: 0 },
            Step::Forward { next: 3 },
            Step::Threshold { t: 30, first: true, next: 0 },
            Step::Threshold { t: 7, first: false, next: 2 },
            Step::Threshold { t: 0, first: true, next: 0 },
        ] {
            c.step = step;
            c.decided += 12_345_678_901;
            c.states[1] += 1;
            c.inboxes[2] = (c.inboxes[2].0 + 1, 8 << 30);
            c.write(dir.path()).unwrap();
            assert_eq!(Checkpoint::read(dir.path()).unwrap(), Ok(Some(c.clone())));
        }
        assert_eq!(c.describe(), "after the last threshold (writing the values)");
        c.step = Step::Threshold { t: 7, first: false, next: 1 };
        assert_eq!(c.describe(), "threshold 7 (partition 2 of 4, pending updates)");
        // Nothing but the file itself is left (no temporary).
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, [FILE]);
    }

    #[test]
    fn a_damaged_or_other_checkpoint_is_not_taken_for_this_one() {
        let c = Checkpoint::start(plan(4));
        let text = c.to_text();
        // Cut short, or one byte changed: no checkpoint.
        assert_eq!(Checkpoint::parse(&text[..text.len() - 3]), None);
        assert_eq!(Checkpoint::parse(&text.replacen("parts 4", "parts 5", 1)), None);
        assert_eq!(Checkpoint::parse(""), None);
        // Another plan parses, and is not this plan's.
        let other = Checkpoint::start(plan(5));
        assert_ne!(Checkpoint::parse(&other.to_text()).unwrap().plan, c.plan);
    }
}
