//! Resume points: the kernel is a tree-walker, so a decision asked inside
//! an effect is a suspended Rust call stack that cannot be copied. What can
//! be copied is the state where no code runs: before the setup, and at the
//! top of each turn (or at the phase a scenario starts from). A game whose
//! seat [forks](super::Agent::forks) keeps the last such point and the
//! number of answers given before it; a copy continues from there with
//! those answers replayed ([`Game::resume`]), reaching the same suspended
//! decision in its own stack. The point costs one state, not the game so far.

use super::state::State;
use super::{Game, Outcome, Res};

/// Where a game can be continued from, as it was then.
#[derive(Clone)]
pub struct Resume {
    pub st: State,
    /// How many words of [`Game::decisions`] had been recorded.
    pub answers: usize,
    /// The setup had not run yet.
    pub setup: bool,
    /// The phase the turn starts at (a scenario's start), if not the first.
    pub phase: Option<u16>,
    /// The steps the game had taken (a copy goes on with the game's budget).
    pub steps: u64,
}

impl Game {
    /// The last resume point, if a seat forks (kept from the setup on).
    pub fn fork_point(&self) -> Option<&Resume> {
        self.fork.as_deref()
    }

    /// The same, to edit (a test that swaps hidden cards swaps them there too).
    pub fn fork_point_mut(&mut self) -> Option<&mut Resume> {
        self.fork.as_deref_mut()
    }

    /// Notes a resume point here, if a seat forks.
    #[inline(always)]
    pub(crate) fn mark(&mut self, setup: bool, phase: Option<u16>) {
        if self.forking {
            self.mark_now(setup, phase);
        }
    }

    #[inline(never)]
    fn mark_now(&mut self, setup: bool, phase: Option<u16>) {
        let answers = self.decisions.len();
        let steps = self.budget.total();
        match &mut self.fork {
            Some(r) => {
                r.st.clone_from(&self.st);
                (r.answers, r.setup, r.phase, r.steps) = (answers, setup, phase, steps);
            }
            None => {
                self.fork = Some(Box::new(Resume {
                    st: self.st.clone(),
                    answers,
                    setup,
                    phase,
                    steps,
                }))
            }
        }
    }

    /// Plays this game on from a resume point (of a game of the same data
    /// and players): its state is copied in, and the setup (if it had not
    /// run) and turns follow to the end. The answers the agents give are
    /// this game's own; agents that replay the original's answers since the
    /// point bring the copy to the decision the original is at.
    pub fn resume(&mut self, from: &Resume) -> Res<Outcome> {
        self.st.clone_from(&from.st);
        self.decisions.clear();
        self.budget.resume_at(from.steps);
        if from.setup {
            return self.play();
        }
        self.play_from(from.phase)
    }

    /// A new game of seed `seed` ([`Game::renew_seed`]) resumed from
    /// `from` ([`Game::resume`]), no new state made first to be copied
    /// over: how a search forks, once a playout.
    pub fn fork_from(&mut self, from: &Resume, seed: u64) -> Res<Outcome> {
        self.renew_in(self.st.nplayers, seed, false);
        self.resume(from)
    }
}
