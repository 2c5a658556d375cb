//! Sharding a class: `--shard K/N` grades the K-th of N parts of the roster.
//!
//! **Invariant**: for a roster and N, every student is in exactly one of
//! the N shards, and which one depends only on the set of students (their
//! names, then their sources), never on the roster's order or on anything
//! of the machine or the run.
//!
//! The assignment is a round robin over the roster sorted by name: the
//! student at sorted position `p` is in shard `p % N + 1`. A hash of the
//! name (FNV-1a, say) would also be stable, but it balances only on
//! average: 40 students on 20 runners would leave some runners idle and
//! give others four or five, and the class takes as long as its fullest
//! shard. The round robin gives every shard `M / N` students, give or take
//! one. That a new student moves others to another shard does not matter:
//! the shards of one run read the same roster, and the merge refuses parts
//! of different rosters (see [`crate::merge`]).

use crate::class::{Source, Student};
use std::fmt;
use std::str::FromStr;

/// One of N shards, `K/N` with `1 <= K <= N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    k: usize,
    n: usize,
}

impl Shard {
    /// Shard `k` of `n`, if `1 <= k <= n`.
    pub fn new(k: usize, n: usize) -> Option<Shard> {
        (1 <= k && k <= n).then_some(Shard { k, n })
    }

    /// K, from 1.
    pub fn k(self) -> usize {
        self.k
    }

    /// N, the number of shards.
    pub fn n(self) -> usize {
        self.n
    }

    /// The positions in `students` of this shard's students, in roster
    /// order.
    pub fn members(self, students: &[Student]) -> Vec<usize> {
        let of = assignment(students, self.n);
        (0..students.len()).filter(|&i| of[i] == self.k).collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let usage = "write K/N, the K-th of N shards, such as 2/5";
        let Some((k, n)) = text.trim().split_once('/') else {
            return Err(format!("`{text}` is not a shard: {usage}"));
        };
        let number = |part: &str, what: &str| {
            part.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{text}`: {what} `{part}` is not a number: {usage}"))
        };
        let (k, n) = (number(k, "K")?, number(n, "N")?);
        if n == 0 {
            return Err(format!(
                "`{text}`: there must be at least one shard (N >= 1)"
            ));
        }
        if k == 0 {
            return Err(format!("`{text}`: shards count from 1 (1/{n} to {n}/{n})"));
        }
        Shard::new(k, n).ok_or_else(|| {
            format!("`{text}`: there are only {n} shards (1/{n} to {n}/{n}), so no shard {k}")
        })
    }
}

/// The shard (1 to `n`) of each student of `students`, by position.
fn assignment(students: &[Student], n: usize) -> Vec<usize> {
    let mut sorted: Vec<usize> = (0..students.len()).collect();
    sorted.sort_by(|&a, &b| key(&students[a]).cmp(&key(&students[b])));
    let mut of = vec![0; students.len()];
    for (position, &index) in sorted.iter().enumerate() {
        of[index] = position % n.max(1) + 1;
    }
    of
}

/// What orders a student for the assignment: the name, then the source
/// (two entries of one name differ by where they come from).
fn key(student: &Student) -> (&str, String) {
    let source = match &student.source {
        Source::Folder(path) => path.to_string_lossy().into_owned(),
        Source::Git(url) => url.clone(),
    };
    (&student.name, source)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roster(names: &[&str]) -> Vec<Student> {
        names
            .iter()
            .map(|name| Student {
                name: (*name).to_owned(),
                source: Source::Git(format!("https://example.com/{name}.git")),
            })
            .collect()
    }

    fn shard_of(students: &[Student], n: usize, name: &str) -> usize {
        (1..=n)
            .find(|&k| {
                Shard::new(k, n)
                    .expect("a shard")
                    .members(students)
                    .iter()
                    .any(|&i| students[i].name == name)
            })
            .unwrap_or(0)
    }

    const NAMES: [&str; 11] = [
        "zoe", "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
    ];

    #[test]
    fn every_student_is_in_exactly_one_shard() {
        for size in 0..NAMES.len() {
            let students = roster(&NAMES[..size]);
            for n in 1..=7 {
                let mut seen = vec![0; size];
                let mut sizes = Vec::new();
                for k in 1..=n {
                    let members = Shard::new(k, n).expect("a shard").members(&students);
                    sizes.push(members.len());
                    for i in members {
                        seen[i] += 1;
                    }
                }
                assert!(seen.iter().all(|&count| count == 1), "{size} in {n}");
                let (min, max) = (sizes.iter().min(), sizes.iter().max());
                assert!(
                    max.zip(min).is_some_and(|(max, min)| max - min <= 1),
                    "balanced: {sizes:?}"
                );
            }
        }
    }

    #[test]
    fn the_shard_of_a_student_does_not_depend_on_the_roster_order() {
        let students = roster(&NAMES);
        let mut reversed = students.clone();
        reversed.reverse();
        let mut rotated = students.clone();
        rotated.rotate_left(4);
        for n in 1..=5 {
            for name in NAMES {
                let shard = shard_of(&students, n, name);
                assert!(shard >= 1);
                assert_eq!(shard_of(&reversed, n, name), shard, "{name} in {n}");
                assert_eq!(shard_of(&rotated, n, name), shard, "{name} in {n}");
            }
        }
        // Members come back in roster order.
        let members = Shard::new(1, 3).expect("a shard").members(&students);
        assert!(members.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn a_shard_is_k_of_n() {
        assert_eq!("2/5".parse::<Shard>(), Ok(Shard { k: 2, n: 5 }));
        assert_eq!(
            "1/1".parse::<Shard>().map(|s| s.to_string()),
            Ok("1/1".into())
        );
        for (text, reason) in [
            ("0/3", "count from 1"),
            ("4/3", "only 3 shards"),
            ("x", "is not a shard"),
            ("a/3", "is not a number"),
            ("1/0", "at least one"),
            ("-1/3", "is not a number"),
        ] {
            let refused = text.parse::<Shard>().err().unwrap_or_default();
            assert!(refused.contains(reason), "{text}: {refused}");
        }
    }
}
