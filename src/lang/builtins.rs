//! The kernel operations every game's vocabulary is built from. Games name their
//! own verbs (draw, gain, trash…) in `rules/`; these are the generic primitives.

macro_rules! builtins {
    ($($variant:ident = $name:literal, $min:literal ..= $max:literal, $doc:literal;)*) => {
        /// A kernel operation callable from card text, verbs and scripts.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Builtin { $($variant),* }

        impl Builtin {
            pub const ALL: &'static [Builtin] = &[$(Builtin::$variant),*];
            pub fn name(self) -> &'static str { match self { $(Builtin::$variant => $name),* } }
            pub fn arity(self) -> (usize, usize) { match self { $(Builtin::$variant => ($min, $max)),* } }
            pub fn doc(self) -> &'static str { match self { $(Builtin::$variant => $doc),* } }
            pub fn lookup(name: &str) -> Option<Builtin> {
                match name { $($name => Some(Builtin::$variant),)* _ => None }
            }
        }
    };
}

builtins! {
    Move = "move", 2..=4, "move(cards, zone, cause?, \"bottom\"?): move cards one at a time, raising `would <cause>` and `<cause>` events";
    MoveAll = "move_together", 2..=3, "move_together(cards, zone, cause?): move several cards at once (one event each, their abilities due together; one transcript line)";
    Shuffle = "shuffle", 1..=1, "shuffle(zone): shuffle with the game's seeded RNG";
    Top = "top", 1..=2, "top(zone) is the top card or none; top(zone, n) the top n cards";
    Bottom = "bottom", 1..=1, "bottom(zone): the bottom card or none";
    Count = "count", 1..=1, "count(list or zone)";
    Empty = "empty", 1..=1, "empty(list or zone)";
    First = "first", 1..=1, "first(list): its first item or none";
    At = "at", 2..=2, "at(list, i): the item at index i (from 0), or none";
    Contains = "contains", 2..=2, "contains(list, item)";
    Pile = "pile", 2..=2, "pile(zone, @card): top card of that card's pile, or none";
    PileCount = "pile_count", 2..=2, "pile_count(zone, @card)";
    Piles = "piles", 1..=1, "piles(zone): the card id of every pile made in a pile zone, empty ones too";
    EmptyPiles = "empty_piles", 1..=1, "empty_piles(zone): how many piles of the zone are empty";
    Choose = "choose", 3..=5, "choose(player?, list, min, max, prompt?): a list of chosen items";
    ChooseOne = "choose_one", 1..=3, "choose_one(player?, list, prompt?): one item, or none if the list is empty";
    May = "may", 1..=2, "may(player?, prompt): a yes/no decision";
    ChooseOption = "choose_option", 1..=3, "choose_option(player?, [\"a\", \"b\"], prompt?): one of the strings";
    ChooseEach = "choose_each", 4..=5, "choose_each(zone, min, max, to, prompt?): every player picks min to max cards of their own zone, all at once (no one sees another's picks); then each one's picks move together to their own `to`; the picked cards";
    Order = "order", 1..=3, "order(player?, list, prompt?): the list in an order the player picks";
    Reveal = "reveal", 1..=1, "reveal(cards): show to every player";
    Look = "look", 1..=1, "look(cards): show to the player running the code";
    Emit = "emit", 1..=5, "emit(event, card?, player?, amount?, target?): raise a rules-declared event (`event.target` is the target; amount none: not counted); false if prevented";
    Prevent = "prevent", 0..=0, "prevent(): stop the `would` event being handled";
    Run = "run", 2..=4, "run(card, \"effect\", player?, target?): run one of a card's named effects; `target` is visible to it";
    Stack = "stack", 2..=3, "stack(card, \"effect\", player?): put a card's effect on the stack";
    Players = "players", 0..=0, "players(): every player in turn order from the active player";
    Others = "others", 0..=0, "others(): the other players in turn order after the player running the code";
    SetActive = "set_active", 1..=1, "set_active(p): make p the active player (e.g. the first player at setup)";
    NextPlayer = "next_player", 1..=1, "next_player(p): the player after p";
    Player = "player", 1..=1, "player(n): player number n, counting from 1";
    Create = "create", 2..=3, "create(@card, zone, n?): make n new cards in a zone";
    Attach = "attach", 2..=2, "attach(card, host): attach a card to (or store it under) another; moving the card ends it";
    Attached = "attached", 1..=1, "attached(host): the cards attached to a card, oldest first";
    Mark = "mark", 2..=2, "mark(card, \"tag\"): give a card a tag until removed";
    Unmark = "unmark", 2..=2, "unmark(card, \"tag\")";
    Modify = "modify", 3..=4, "modify(card, \"prop\", delta, until?): until \"turn\", \"phase\", a phase name, forever, or a card: while that card stays where it is";
    EndTurn = "end_turn", 0..=0, "end_turn(): jump to the end of the turn";
    RepeatPhase = "repeat_phase", 0..=0, "repeat_phase(): run the current phase once more after it ends";
    Log = "log", 1..=1, "log(text): add a line to the transcript";
    Option = "option", 1..=1, "option(\"name\"): the list of card ids given on the command line for this option, or none";
    Defs = "defs", 1..=1, "defs(\"tag\"): every card definition with that tag";
    RandomPick = "random_pick", 2..=2, "random_pick(list, n): n items drawn with the game's RNG";
    Random = "random", 2..=2, "random(lo, hi): a number from lo to hi inclusive, from the game's RNG";
    Sum = "sum", 2..=2, "sum(list, expr): add expr over the list, `it` bound to each item";
    Any = "any", 2..=2, "any(list, cond): whether some item has cond";
    Min = "min", 2..=2, "min(a, b)";
    Max = "max", 2..=2, "max(a, b)";
    Window = "window", 1..=1, "window(\"name\"): open a priority window declared in the rules";
    ResolveTriggers = "resolve_triggers", 0..=0, "resolve_triggers(): a check point for queued triggers";
    Lose = "lose", 1..=1, "lose(player): the player loses; the game ends when one is left";
    Get = "get", 2..=2, "get(x, \"field\"): a field by name (for scripts)";
    Set = "set", 3..=3, "set(x, \"field\", value): set a counter or event field by name (for scripts)";
    ZoneOf = "zone", 1..=2, "zone(\"name\", player?): a zone by name (for scripts)";
}

/// A table of names a builtin argument must come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameTable {
    Events,
    Tags,
    Props,
    Effects,
    Windows,
    Zones,
}

impl NameTable {
    pub fn what(self) -> &'static str {
        match self {
            NameTable::Events => "event",
            NameTable::Tags => "tag",
            NameTable::Props => "property",
            NameTable::Effects => "effect",
            NameTable::Windows => "window",
            NameTable::Zones => "zone",
        }
    }
}

impl Builtin {
    /// Arguments that name a table entry are checked at load time and passed as indices.
    pub fn name_table(self, arg: usize) -> Option<NameTable> {
        Some(match (self, arg) {
            (Builtin::Move | Builtin::MoveAll, 2) | (Builtin::Emit, 0) => NameTable::Events,
            (Builtin::Mark | Builtin::Unmark, 1) | (Builtin::Defs, 0) => NameTable::Tags,
            (Builtin::Modify, 1) => NameTable::Props,
            (Builtin::Run | Builtin::Stack, 1) => NameTable::Effects,
            (Builtin::Window, 0) => NameTable::Windows,
            (Builtin::ZoneOf, 0) => NameTable::Zones,
            _ => return None,
        })
    }
}
