//! What one assumption implies ([`Outcome`]: each potential with its parents, cause and nested
//! chain, on buffers reused between searches), and the walks over its parents that give a hint's
//! complexity, rule causes and identity ([`made`]).

use super::*;

/// One implied potential: where its parents are in the pool, its cause and its nested chain.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) id: Id,
    pub(super) start: u32,
    pub(super) n: u16,
    pub(super) cause: u8,
    /// Index into `Outcome::nests`, or ABSENT.
    pub(super) nest: u32,
}

/// The potentials one assumption implies: each with the potentials that implied it.
#[derive(Clone)]
pub(super) struct Outcome {
    /// Per identity: index into `nodes`, or NO_SLOT.
    pub(super) slot: Vec<u16>,
    /// In insertion order.
    pub(super) nodes: Vec<Node>,
    pub(super) pool: Vec<Id>,
    pub(super) nests: Vec<Nest>,
    /// Set if propagation stopped at a contradiction: the on and off versions of one potential,
    /// each as (identity, parents, cause).
    pub(super) absurd: Option<[(Id, Vec<Id>, u8); 2]>,
}

/// The buffers of a dropped [`Outcome`], its slot table cleared, kept for the next one.
pub(super) struct Spare {
    pub(super) slot: Vec<u16>,
    pub(super) nodes: Vec<Node>,
    pub(super) pool: Vec<Id>,
    pub(super) nests: Vec<Nest>,
}

/// How many spare outcomes a thread keeps (about 8 KB each): more than a dynamic search holds
/// at once on the boards measured.
pub(super) const SPARES: usize = 1024;

thread_local! {
    /// Buffers of dropped outcomes: a search makes two outcomes per candidate, each with a
    /// 1,458-entry slot table, and clearing a reused table costs one write per node instead of
    /// a fresh allocation and 2.9 KB of writes (11% of the instructions on the extreme band).
    static SPARE: RefCell<Vec<Spare>> = const { RefCell::new(Vec::new()) };
}

impl Drop for Outcome {
    fn drop(&mut self) {
        if self.slot.len() != 1458 {
            return;
        }
        for n in &self.nodes {
            self.slot[n.id as usize] = NO_SLOT;
        }
        self.nodes.clear();
        self.pool.clear();
        self.nests.clear();
        let spare = Spare {
            slot: std::mem::take(&mut self.slot),
            nodes: std::mem::take(&mut self.nodes),
            pool: std::mem::take(&mut self.pool),
            nests: std::mem::take(&mut self.nests),
        };
        // During the thread's teardown the list may be gone: the buffers are then freed.
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                if s.len() < SPARES {
                    s.push(spare);
                }
            }
        });
    }
}

impl Outcome {
    /// An empty outcome, on the buffers of a dropped one if the thread has any.
    pub(super) fn new() -> Outcome {
        let spare = SPARE
            .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()))
            .ok()
            .flatten();
        match spare {
            Some(Spare {
                slot,
                nodes,
                pool,
                nests,
            }) => Outcome {
                slot,
                nodes,
                pool,
                nests,
                absurd: None,
            },
            None => Outcome {
                slot: vec![NO_SLOT; 1458],
                nodes: Vec::with_capacity(256),
                pool: Vec::with_capacity(512),
                nests: Vec::new(),
                absurd: None,
            },
        }
    }

    pub(super) fn contains(&self, i: Id) -> bool {
        self.slot[i as usize] != NO_SLOT
    }

    pub(super) fn add(&mut self, i: Id, parents: &[Id]) {
        self.add_full(i, parents, CAUSE_NONE, None);
    }

    /// [`Outcome::add`] with one parent, the propagation's every on → off link: inlined there.
    #[inline(always)]
    pub(super) fn add_one(&mut self, i: Id, parent: Id) {
        self.slot[i as usize] = self.nodes.len() as u16;
        self.nodes.push(Node {
            id: i,
            start: self.pool.len() as u32,
            n: 1,
            cause: CAUSE_NONE,
            nest: ABSENT,
        });
        self.pool.push(parent);
    }

    pub(super) fn add_full(&mut self, i: Id, parents: &[Id], cause: u8, nest: Option<Nest>) {
        self.slot[i as usize] = self.nodes.len() as u16;
        let nest = match nest {
            Some(n) => {
                self.nests.push(n);
                self.nests.len() as u32 - 1
            }
            None => ABSENT,
        };
        self.nodes.push(Node {
            id: i,
            start: self.pool.len() as u32,
            n: parents.len() as u16,
            cause,
            nest,
        });
        // One to three parents, nearly always: pushed one by one rather than through a copy
        // call.
        for &p in parents {
            self.pool.push(p);
        }
    }

    pub(super) fn node(&self, i: Id) -> &Node {
        &self.nodes[self.slot[i as usize] as usize]
    }

    pub(super) fn parents(&self, i: Id) -> &[Id] {
        let n = self.node(i);
        &self.pool[n.start as usize..n.start as usize + n.n as usize]
    }

    pub(super) fn cause(&self, i: Id) -> u8 {
        if self.contains(i) {
            self.node(i).cause
        } else {
            CAUSE_NONE
        }
    }

    pub(super) fn ons(&self) -> impl Iterator<Item = Id> + '_ {
        self.nodes.iter().map(|n| n.id).filter(|&i| id_on(i))
    }

    pub(super) fn offs(&self) -> impl Iterator<Item = Id> + '_ {
        self.nodes.iter().map(|n| n.id).filter(|&i| !id_on(i))
    }

    /// Visits `start` (a node with the given parents, possibly not stored itself) and each of
    /// its distinct ancestors once; returns how many (SE's `getAncestorCount`). Stops as soon
    /// as the count exceeds `limit`, returning a count above it (a chain that long cannot be
    /// the one taken, see [`Collector`]).
    pub(super) fn walk(
        &self,
        start: Id,
        start_parents: &[Id],
        seen: &mut Seen,
        limit: usize,
        mut visit: impl FnMut(Id),
    ) -> usize {
        seen.clear();
        let mut todo = std::mem::take(&mut seen.todo);
        todo.clear();
        seen.mark(start);
        visit(start);
        let mut n = 1;
        // The parents to follow next: the start's, then those of each stored node popped.
        let mut parents = start_parents;
        'walk: loop {
            for &q in parents {
                if seen.mark(q) {
                    n += 1;
                    if n > limit {
                        break 'walk;
                    }
                    visit(q);
                    todo.push(q);
                }
            }
            parents = loop {
                match todo.pop() {
                    None => break 'walk,
                    Some(p) if self.contains(p) => break self.parents(p),
                    Some(_) => {}
                }
            };
        }
        seen.todo = todo;
        n
    }

    /// Distinct potentials among `start` and all its ancestors (SE's `getAncestorCount`).
    pub(super) fn ancestors(&self, start: Id, start_parents: &[Id], seen: &mut Seen) -> usize {
        self.walk(start, start_parents, seen, usize::MAX, |_| {})
    }

    /// The chain to `i` as text, following first parents back to the assumption.
    pub(super) fn describe(&self, i: Id, first_parents: &[Id]) -> String {
        let mut items = vec![pot_str(i)];
        let mut next = first_parents.first().copied();
        let mut guard = 0;
        while let Some(p) = next {
            items.push(pot_str(p));
            next = if self.contains(p) {
                self.parents(p).first().copied()
            } else {
                None
            };
            guard += 1;
            if guard > 200 {
                break;
            }
        }
        items.reverse();
        items.join(" → ")
    }
}

/// The marks of an ancestor walk, kept between walks: a potential is marked if and only if
/// its mark equals `stamp`, so a new walk takes a new stamp instead of clearing 1,458 marks.
pub(super) struct Seen {
    pub(super) stamp: u32,
    pub(super) marks: Vec<u32>,
    /// The walk's stack, kept for its allocation.
    pub(super) todo: Vec<Id>,
}

impl Seen {
    pub(super) fn new() -> Seen {
        Seen {
            stamp: 0,
            marks: vec![0; 1458],
            todo: Vec::with_capacity(64),
        }
    }

    /// Unmarks every potential.
    pub(super) fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
    }

    /// Marks `i`; whether it was unmarked.
    #[inline]
    pub(super) fn mark(&mut self, i: Id) -> bool {
        let m = &mut self.marks[i as usize];
        let new = *m != self.stamp;
        *m = self.stamp;
        new
    }
}

/// One branch's part of a hint: the outcome and a target in it (with its parents and cause when
/// it is not stored, as a contradiction's second potential is not).
pub(super) struct Part<'a> {
    pub(super) out: &'a Outcome,
    pub(super) target: Id,
    pub(super) parents: &'a [Id],
    pub(super) cause: u8,
}

/// What a hint is made of, for its rating and for nesting it in an outer chain.
#[derive(Default)]
pub(super) struct Made {
    /// Distinct nodes of each part, summed, plus the complexity of each distinct nested chain.
    pub(super) complexity: usize,
    /// On potentials of the chains with their causes (only if asked for).
    pub(super) rule_on: Vec<(Id, u8)>,
    /// Identity of the hint's chains (only if asked for).
    pub(super) key: u64,
}

/// SE's `getComplexity` (flat complexity plus nested chains, each counted once) and, if
/// `nesting`, the hint's rule causes and identity. `source_cause` is the cause SE gives the
/// assumptions of a cell (`CAUSE_CELL`) or region (`CAUSE_HOUSE + h`) forcing chain.
///
/// `None` if the flat complexity exceeds `limit` (the walks stop there): such a hint cannot
/// be the one taken (see [`Collector`]).
pub(super) fn made(
    parts: &[Part],
    seen: &mut Seen,
    nesting: bool,
    source_cause: u8,
    limit: usize,
) -> Option<Made> {
    let mut m = Made::default();
    let mut nests: Vec<Nest> = Vec::new();
    let mut key: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        let o = part.out;
        let track = nesting || !o.nests.is_empty();
        key = mix(key, part.target as u64 | 1 << 20);
        let left = limit.saturating_sub(m.complexity);
        m.complexity += o.walk(part.target, part.parents, seen, left, |p| {
            if !track {
                return;
            }
            let stored = o.contains(p);
            if stored {
                let n = o.node(p);
                if n.nest != ABSENT {
                    let nest = o.nests[n.nest as usize];
                    if !nests.contains(&nest) {
                        nests.push(nest);
                    }
                }
            }
            if nesting {
                key = mix(key, p as u64);
                if id_on(p) {
                    let cause = if p == part.target && !stored {
                        part.cause
                    } else if stored {
                        o.node(p).cause
                    } else {
                        CAUSE_NONE
                    };
                    let cause = if cause == CAUSE_NONE && stored && o.parents(p).is_empty() {
                        source_cause
                    } else {
                        cause
                    };
                    if cause != CAUSE_NONE {
                        m.rule_on.push((p, cause));
                    }
                }
            }
        });
        if m.complexity > limit {
            return None;
        }
    }
    m.complexity += nests.iter().map(|n| n.complexity as usize).sum::<usize>();
    if m.complexity > limit {
        return None;
    }
    m.key = key;
    Some(m)
}
