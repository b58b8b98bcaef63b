//! Limits on untrusted data, in one place: each one is far beyond what real
//! rules and cards need, and reached by data that would otherwise hang fuda or
//! exhaust its memory. Going past one is a located error naming the file, card
//! or rule (exit 1), never a crash.

/// Steps one turn (or the setup) may take: far beyond any real turn, and
/// reached in seconds by data that never stops (a phase repeated forever,
/// nested loops, abilities that trigger each other, a move always chosen).
pub const MAX_STEPS: u64 = 5_000_000;

/// Steps one game may take, setup and turns together: rules can stay just
/// under [`MAX_STEPS`] every turn for [`MAX_TURNS`] turns (hours), so the
/// game is stopped here (seconds: a script's operations, the slowest
/// steps, run at about 4M a second), over 40 times what the shipped games
/// take (at most 459,945 over 200 seeds of each game, agent kind and player
/// count, with zone walks, picks, shuffles and moves paying a step a card:
/// t3's `first` agents played to its turn limit).
pub const MAX_GAME_STEPS: u64 = 20_000_000;

/// Bytes one game may hold, all it made together (lists, strings, script
/// values, cards, its transcript), counted by the allocator
/// ([`crate::memory`]) and checked every [`MEMORY_CHECK_STEPS`] steps and
/// every [`MEMORY_CHECK_OPERATIONS`] script operations: data that builds
/// values without end is stopped before the machine runs out of memory.
pub const MAX_GAME_BYTES: usize = 512 << 20;

/// Steps between two checks of a game's memory: a step makes a bounded
/// amount (an item copied or a few bytes of text), so little is made
/// between checks.
pub const MEMORY_CHECK_STEPS: u64 = 4096;

/// Script operations between two checks of a game's memory.
pub const MEMORY_CHECK_OPERATIONS: u64 = 1024;

/// Cards a move of one card may pass over for free, taking it from below
/// the top of its zone or pile and putting it at the bottom (each searched
/// or shifted): the cards past these cost a step each, so a card taken from
/// deep in a huge zone costs what taking it costs, while moves in hands,
/// decks and piles of real size (and so the shipped games' step counts)
/// are unchanged.
pub const FREE_PASSED: usize = 64;

/// Bytes of a string made by `+` that cost one step (an item of a list
/// walked or copied costs one).
pub const TEXT_BYTES_PER_STEP: usize = 16;

/// Turns a game may last (`max_turns`): with [`MAX_STEPS`] a turn, a game
/// whose end rule never fires still ends.
pub const MAX_TURNS: u32 = 10_000;

/// Errors shown of one file; the rest are counted.
pub const MAX_ERRORS_PER_FILE: usize = 50;

/// Characters of a name "did you mean" compares: an edit distance costs
/// the product of two names' lengths, so two names of half a megabyte (a
/// file holds them) would take hours and terabytes; no real name is
/// longer, and past it no suggestion is made.
pub const MAX_SUGGEST_CHARS: usize = 256;

/// Iterations a `while` loop may run before it is reported as endless.
pub const MAX_LOOP: u32 = 100_000;

/// How deep code may nest before running it is an error (as `enter` counts).
pub const MAX_DEPTH: u32 = 200;

/// How deep card text may nest (each operator, call, block and bracket is a
/// level): far more than card text needs, and little enough that compiling,
/// running and dropping the code never exhausts the stack.
pub const MAX_NEST: usize = 256;

/// Card objects a game may hold.
pub const MAX_OBJECTS: usize = 1_000_000;

/// Items in a list, bytes in a string made by code.
pub const MAX_LIST: usize = 1_000_000;

/// Names in one of the rules' tables (verbs, properties, events…) and script
/// functions: code refers to a name by a 16-bit id, which past this would
/// wrap onto another name.
pub const MAX_NAMES: usize = 1 << 16;

/// A property and an effect slot of every card definition: each card holds
/// one of each the rules name (and the card table a copy of them), so cards
/// times names, not either alone, is what a load allocates (3,000 properties
/// on 3,000 cards took 165 MB; 65,536 on 50,000 cards would ask ~60 GB).
pub const MAX_CARD_VALUES: usize = 1 << 22;

/// Bytes in one data file (rules, cards, scripts) or save file.
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// Nesting of YAML flow collections (`[`, `{`) in one file: the YAML parser
/// slows as depth² (100,000 levels took 40 s).
pub const MAX_YAML_DEPTH: usize = 256;

/// Nodes one YAML file may expand to once its aliases are replayed (an alias
/// bomb of 400 KB expanded to 2 GB).
pub const MAX_YAML_NODES: usize = 500_000;

/// Bytes of one piece of code (a card's ability, a rule, a script file):
/// compiled code takes about 95 bytes of memory per byte of source.
pub const MAX_CODE_BYTES: usize = 64 * 1024;

/// Entries in one game's transcript: a rule that logs without end is stopped
/// before it exhausts memory.
pub const MAX_LOG_ENTRIES: usize = 1_000_000;

/// Operations one script call may run (an endless loop is stopped),
/// values read charged by size ([`SCRIPT_SIZE_PER_OPERATION`]).
pub const MAX_SCRIPT_OPERATIONS: u64 = 2_000_000;

/// Items (of arrays and maps) and bytes (of strings) a script reads for the
/// cost of one operation: reading a variable of a 100,000-item array costs
/// 25,000, so one call can scan, copy or grow a big value only so often.
pub const SCRIPT_SIZE_PER_OPERATION: u64 = 4;

/// Nested script function calls (endless recursion is stopped).
pub const MAX_SCRIPT_CALL_LEVELS: usize = 48;

/// Nesting of script expressions, at the top level and in functions.
pub const MAX_SCRIPT_EXPR_DEPTH: usize = 64;
pub const MAX_SCRIPT_FN_EXPR_DEPTH: usize = 32;

/// Bytes in a script string, items in a script array or map.
pub const MAX_SCRIPT_STRING: usize = 64 * 1024;
pub const MAX_SCRIPT_ARRAY: usize = 100_000;
pub const MAX_SCRIPT_MAP: usize = 10_000;

/// Squares a board may declare, and squares one `advance` may move.
pub const MAX_SQUARES: usize = 10_000;

/// Squares times the square properties named: each square holds a value of
/// each, in the board's declaration and again in every game (and every
/// copy a search makes), so the product is what is allocated.
pub const MAX_SQUARE_VALUES: usize = 1 << 20;
pub const MAX_ADVANCE: i64 = 100_000;

/// Stack of a thread that plays games or compiles code. Nesting in data is
/// limited (code depth, effect depth, script call levels) but the limits
/// multiply: a verb nested 200 deep may run deep expressions and Rhai at
/// each level. Pages are only touched when used.
pub const STACK_SIZE: usize = 512 << 20;
