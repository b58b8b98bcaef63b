//! The kernel operations every game's vocabulary is built from. Games name their
//! own verbs (draw, gain, trash…) in `rules/`; these are the generic primitives.

macro_rules! builtins {
    ($($variant:ident = $name:literal, $min:literal ..= $max:literal, $params:literal, $doc:literal;)*) => {
        /// A kernel operation callable from card text, verbs and scripts.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Builtin { $($variant),* }

        impl Builtin {
            pub const ALL: &'static [Builtin] = &[$(Builtin::$variant),*];
            pub fn name(self) -> &'static str { match self { $(Builtin::$variant => $name),* } }
            pub fn arity(self) -> (usize, usize) { match self { $(Builtin::$variant => ($min, $max)),* } }
            /// The parameters as written in a call; `?` marks an optional one.
            pub fn params(self) -> &'static str { match self { $(Builtin::$variant => $params),* } }
            /// What the operation does, for users (`fuda doc operations`).
            pub fn doc(self) -> &'static str { match self { $(Builtin::$variant => $doc),* } }
            pub fn lookup(name: &str) -> Option<Builtin> {
                match name { $($name => Some(Builtin::$variant),)* _ => None }
            }
        }
    };
}

builtins! {
    Move = "move", 2..=4, "cards, zone, cause?, \"bottom\"?",
        "Moves a card or each card of a list to the zone, one at a time, on top (or at the bottom with \"bottom\"). With a cause (a rules event), each move first raises `would <cause>` (an ability may `prevent()` it) and then `<cause>` with `event.card`, `.from` and `.to`. Returns the card moved (an empty list if its move was prevented) or the list of cards moved.";
    MoveAll = "move_together", 2..=3, "cards, zone, cause?",
        "Moves several cards at once: one event each, their abilities due together, one transcript line. Returns the cards moved.";
    Shuffle = "shuffle", 1..=1, "zone",
        "Shuffles the zone with the game's seeded random number generator.";
    Top = "top", 1..=2, "zone, n?",
        "The top card of the zone, or none if it is empty; with n, a list of the top n cards (top first).";
    Bottom = "bottom", 1..=1, "zone",
        "The bottom card of the zone, or none.";
    Count = "count", 1..=1, "list_or_zone",
        "How many items the list or cards the zone holds (none counts 0).";
    Empty = "empty", 1..=1, "list_or_zone",
        "Whether the list or zone holds nothing.";
    First = "first", 1..=1, "list",
        "The first item of the list, or none.";
    At = "at", 2..=2, "list, i",
        "The item at index i (from 0), or none past the end.";
    Contains = "contains", 2..=2, "list, item",
        "Whether the list holds the item (a card, a card id like `@x`, a player…); false for none.";
    Pile = "pile", 2..=2, "zone, @card",
        "In a zone of piles: the top card of the pile of that card id, or none.";
    PileCount = "pile_count", 2..=2, "zone, @card",
        "In a zone of piles: how many cards the pile of that card id holds.";
    Piles = "piles", 1..=1, "zone",
        "In a zone of piles: the card id of every pile made, empty ones too.";
    EmptyPiles = "empty_piles", 1..=1, "zone",
        "In a zone of piles: how many piles are empty.";
    Choose = "choose", 3..=5, "player?, list, min, max, prompt?",
        "Asks the player (default: the player running the code) to pick from min to max items of the list; returns the list picked.";
    ChooseOne = "choose_one", 1..=3, "player?, list, prompt?",
        "Asks for exactly one item of the list; none if the list is empty.";
    May = "may", 1..=2, "player?, prompt",
        "Asks a yes/no question; true for yes.";
    ChooseOption = "choose_option", 1..=3, "player?, options, prompt?",
        "Asks the player to pick one string of a list such as `[\"a\", \"b\"]`; returns it.";
    ChooseEach = "choose_each", 4..=5, "zone, min, max, to, prompt?",
        "Every player picks from min to max cards of their own `zone`, all at once (no one sees another's picks; a player with nothing to pick is not asked); then each one's picks move together to their own `to` zone. Both must be per-player zones. Returns the picked cards.";
    Order = "order", 1..=3, "player?, list, prompt?",
        "Asks the player to put the list in an order; returns it in that order.";
    Reveal = "reveal", 1..=1, "cards",
        "Shows the card or cards to every player (a transcript line); returns them as a list.";
    Look = "look", 1..=1, "cards",
        "Shows the card or cards to the player running the code only; returns them as a list. Until a card moves, that player knows it: asked to choose among cards it may not see, it reads this one's name.";
    Emit = "emit", 1..=5, "event, card?, player?, amount?, target?",
        "Raises a rules-declared event: first `would <event>` (abilities may prevent it or change `event.amount`), then the event. `event.player` defaults to the player running the code. Returns whether it happened, or with an amount the amount that happened (0 if prevented).";
    Prevent = "prevent", 0..=0, "",
        "Inside an ability on a `would` event: the event does not happen. An error elsewhere (`fuda check` reports one written in an ability on a plain `on:` event).";
    Run = "run", 2..=4, "card, effect, player?, target?",
        "Runs one of the card's named effects now, for the player (default: the player running the code); `target` is visible to it. Nothing for none.";
    Stack = "stack", 2..=3, "card, effect, player?",
        "Puts one of the card's named effects on the stack: the newest resolves when every player of the open window has passed in a row.";
    Players = "players", 0..=0, "",
        "Every player still in the game, in turn order from the active player.";
    Others = "others", 0..=0, "",
        "The other players, in turn order after the player running the code.";
    SetActive = "set_active", 1..=1, "player",
        "Makes the player the active player (e.g. the first player, at setup).";
    NextPlayer = "next_player", 1..=1, "player",
        "The player after this one in turn order (skipping players who lost).";
    Player = "player", 1..=1, "n",
        "Player number n, counting from 1; an error if there is no such player.";
    Create = "create", 2..=3, "@card, zone, n?",
        "Makes n (default 1) new cards of that card id on top of the zone; returns them.";
    Attach = "attach", 2..=2, "cards, host",
        "Attaches the card or cards to the host card (or stores them under it); moving a card ends it; host none detaches.";
    Attached = "attached", 1..=1, "host",
        "The cards attached to the host, oldest first (empty for none).";
    Mark = "mark", 2..=2, "cards, tag",
        "Gives the card or cards a rules-declared tag until it is removed; `is tag` sees it.";
    Unmark = "unmark", 2..=2, "cards, tag",
        "Removes a tag given by `mark` (a tag the card is printed with stays).";
    Modify = "modify", 3..=4, "cards, prop, delta, until?",
        "Adds delta to a property of the card or cards until \"turn\" (its end), \"phase\", a named phase's end, \"forever\" (the default), an event's name (until that event is emitted for the card: `emit(\"battle_over\", card)`) or, given a card, while that card stays where it is. A list of two ends it at whichever comes first: `[\"battle_over\", \"battle\"]`.";
    EndTurn = "end_turn", 0..=0, "",
        "Jumps to the end of the turn; triggers still waiting are dropped.";
    RepeatPhase = "repeat_phase", 0..=0, "",
        "Runs the current phase once more after it ends.";
    Log = "log", 1..=1, "text",
        "Adds a line to the transcript.";
    Option = "option", 1..=1, "name",
        "A rules-declared game option: the list of card ids given for it (`--set name=a,b` on the command line, `options:` in a scenario), or none if not given.";
    Defs = "defs", 1..=1, "tag",
        "Every card id (card definition) of the game with that tag.";
    HasTag = "has_tag", 2..=2, "card, name",
        "Whether the card (or card id) has the tag named by the string `name`: a tag chosen at run time, such as a verb's parameter or an item of a list of tag names (`x is tag` when the code names the tag itself). False for none; an unknown tag name is an error.";
    Listed = "listed", 1..=1, "card",
        "The card ids the card's (or card id's) `list:` names, each as many times as it is listed (a ready-made deck: `for c in listed(d) { create(c, deck) }`); empty for none.";
    RandomPick = "random_pick", 2..=2, "list, n",
        "n different items of the list (fewer if it is shorter), drawn with the game's seeded random number generator.";
    Random = "random", 2..=2, "lo, hi",
        "A number from lo to hi inclusive, from the game's seeded random number generator.";
    Sum = "sum", 2..=2, "list, expr",
        "Adds expr over the list, with `it` bound to each item.";
    Any = "any", 2..=2, "list, cond",
        "Whether cond holds for some item of the list, with `it` bound to each item.";
    Min = "min", 2..=2, "a, b",
        "The smaller number.";
    Max = "max", 2..=2, "a, b",
        "The larger number.";
    Window = "window", 1..=1, "name",
        "Opens a priority window declared in the rules: players take its moves until they pass.";
    ResolveTriggers = "resolve_triggers", 0..=0, "",
        "A check point: queued abilities (`timing: queued`) resolve now; then the end condition of rules that check it `always` is tested (the game ends here if it holds).";
    Lose = "lose", 1..=1, "player",
        "The player loses; the game ends when one player is left.";
    Get = "get", 2..=2, "x, field",
        "A field by its name as a string, like `x.field` (for scripts).";
    Set = "set", 3..=3, "x, field, value",
        "Sets a counter or an event field by its name as a string, like `x.field = value` (for scripts).";
    ZoneOf = "zone", 1..=2, "name, player?",
        "The zone of that name, a per-player zone of the player (default: the player running the code) (for scripts).";
    Roll = "roll", 1..=3, "player?, n, sides?",
        "The player (default: the player running the code) rolls n dice of `sides` faces (default 6) with the game's seeded random number generator (a scenario's `dice:` fixes them); the transcript shows each die. Returns the total.";
    Piece = "piece", 0..=1, "player?",
        "The square (a number) where the player's piece stands.";
    Advance = "advance", 1..=2, "player?, steps",
        "Moves the player's piece `steps` squares along the board's track, raising `passes` for each square it goes through and `stops` for the last (`event.target` is the square, `event.player` the player). Returns the square reached.";
    PlacePiece = "place_piece", 1..=2, "player?, square",
        "Puts the player's piece on the square directly: nothing is passed or stopped on.";
    Squares = "squares", 0..=1, "kind?",
        "The squares of the track in order from square 0, or only those of that kind (a string).";
    NextSquare = "next_square", 1..=2, "square, n?",
        "The square n (default 1) steps ahead on the track.";
    SquareKind = "square_kind", 1..=1, "square",
        "The square's kind, as the board declares it (a string).";
    SquareName = "square_name", 1..=1, "square",
        "The square's name.";
    SquareCard = "square_card", 1..=1, "square",
        "The card id the board gives the square (`@id`, with its properties), or none.";
    SquareGet = "square_get", 2..=2, "square, prop",
        "A board-declared property of the square: a number, none, or what `square_set` put there (a card, a player…).";
    SquareSet = "square_set", 3..=3, "square, prop, value",
        "Sets a property of the square; the transcript shows the change.";
    BoardSections = "board_sections", 1..=1, "sections",
        "Keeps on the track only the squares whose `section` is in the list (in their order), e.g. a shorter board; pieces on squares left out go to the first square.";
    ShowBoard = "show_board", 0..=0, "",
        "Adds the board to the transcript: each square with its properties that differ from their start and the pieces on it.";
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
    SquareProps,
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
            NameTable::SquareProps => "square property",
        }
    }
}

impl Builtin {
    /// `name(params)`, as a call is written.
    pub fn signature(self) -> String {
        format!("{}({})", self.name(), self.params())
    }

    /// The signature and description: the help of an error at a call.
    pub fn usage(self) -> String {
        format!("{}: {}", self.signature(), self.doc())
    }

    /// Whether the operation only reads the game: no state, log, random
    /// draw, request or event changes, and no counter of work but the steps
    /// it takes (`defs` and `listed` count what they scan). Code made of
    /// such calls gives the same value and takes the same steps each time
    /// it runs on an unchanged game.
    pub fn reads_only(self) -> bool {
        matches!(
            self,
            Builtin::Top
                | Builtin::Bottom
                | Builtin::Count
                | Builtin::Empty
                | Builtin::First
                | Builtin::At
                | Builtin::Contains
                | Builtin::Pile
                | Builtin::PileCount
                | Builtin::Piles
                | Builtin::EmptyPiles
                | Builtin::Players
                | Builtin::Others
                | Builtin::NextPlayer
                | Builtin::Player
                | Builtin::Attached
                | Builtin::Option
                | Builtin::HasTag
                | Builtin::Min
                | Builtin::Max
                | Builtin::Get
                | Builtin::ZoneOf
                | Builtin::Piece
                | Builtin::Squares
                | Builtin::NextSquare
                | Builtin::SquareKind
                | Builtin::SquareName
                | Builtin::SquareCard
                | Builtin::SquareGet
        )
    }

    /// Arguments that name a table entry are checked at load time and passed as indices.
    pub fn name_table(self, arg: usize) -> Option<NameTable> {
        Some(match (self, arg) {
            (Builtin::Move | Builtin::MoveAll, 2) | (Builtin::Emit, 0) => NameTable::Events,
            (Builtin::Mark | Builtin::Unmark, 1) | (Builtin::Defs, 0) => NameTable::Tags,
            (Builtin::Modify, 1) => NameTable::Props,
            (Builtin::Run | Builtin::Stack, 1) => NameTable::Effects,
            (Builtin::Window, 0) => NameTable::Windows,
            (Builtin::ZoneOf, 0) => NameTable::Zones,
            (Builtin::SquareGet | Builtin::SquareSet, 1) => NameTable::SquareProps,
            _ => return None,
        })
    }
}
