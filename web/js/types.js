// The shapes of the live table's view at the page's boundary, as JSDoc types
// (nothing runs here). The OpenAPI document gives `HoldemTableView` only
// its top level and the socket's schema leaves `table` open, so the nested
// objects are written out here after what the server serializes,
// `fairseed_holdem::live::view` (docs/api.md, "Live hold'em table"); the
// socket's messages themselves are generated in wire-types.js.
export {};

/**
 * @typedef {object} SeatPlayer
 * @property {'human' | 'ai'} kind
 * @property {string} [name] a person's name at the table
 * @property {number} [level] an AI's level, 1 to 3
 */

/**
 * @typedef {object} SeatView
 * @property {number} seat
 * @property {SeatPlayer} player
 * @property {string | null} badge
 * @property {'opener' | 'invited' | 'public' | 'house' | null} [came] how the person came to the table (docs/spec.md §19.4); none for an AI
 * @property {number} stack chips behind, outside the pot
 * @property {boolean} sitting_out not dealt in from the next hand
 * @property {boolean} in_hand dealt into the hand being played
 * @property {boolean} folded
 * @property {number} street_bet
 * @property {number} total
 * @property {[number, number] | null} hole the viewer's own cards, or shown at showdown
 */

/** @typedef {import('./wire-types.js').WireAction} WireAction */

/**
 * @typedef {object} LoggedAction
 * @property {number} seat
 * @property {string} street
 * @property {WireAction} action
 * @property {boolean} [timed_out]
 */

/**
 * @typedef {object} LegalView
 * @property {number} to_call 0: checking is free
 * @property {[number, number] | null} raise the smallest and largest raise-to totals
 */

/**
 * @typedef {object} HandView
 * @property {number} number
 * @property {string} commit
 * @property {string} scheme
 * @property {'preflop' | 'flop' | 'turn' | 'river'} street
 * @property {number[]} board
 * @property {number} pot
 * @property {number | null} to_act
 * @property {number | null} deadline_ms
 * @property {LegalView | null} legal
 * @property {LoggedAction[]} actions
 */

/**
 * @typedef {object} PotResult
 * @property {number} amount
 * @property {[number, number][]} winners seat, chips
 */

/**
 * @typedef {object} LastResult
 * @property {number} number
 * @property {string} commit
 * @property {string} seed decimal
 * @property {number[]} board
 * @property {[number, [number, number]][]} shown
 * @property {PotResult[]} pots
 */

/**
 * @typedef {object} SessionView
 * @property {string} scheme
 * @property {string | null} commit
 * @property {string | null} secret hex, once the table closed
 * @property {string} [evidence_key] the table's evidence key, 64 hex: what the items it signs for this seat are checked with (docs/spec.md §20.7)
 */

/**
 * @typedef {object} RoundView
 * @property {number} hand
 * @property {'commit' | 'reveal' | 'dealt'} phase
 * @property {number[]} seats
 * @property {Record<string, string>} commits seat → commit
 * @property {number[]} revealed
 * @property {number} deadline_ms
 */

/**
 * @typedef {object} TableConfig
 * @property {number} seats
 * @property {number} small_blind
 * @property {number} big_blind
 * @property {number} starting_stack
 * @property {number} action_ms
 */

/**
 * @typedef {object} TableView
 * @property {string} table_id
 * @property {TableConfig} config
 * @property {number | null} you
 * @property {(SeatView | null)[]} seats
 * @property {number | null} button
 * @property {number} hands_played
 * @property {HandView | null} hand
 * @property {LastResult | null} last_hand
 * @property {SessionView} session
 * @property {RoundView | null} [round]
 * @property {boolean} closed
 * @property {boolean} [public] anyone, the house included, may sit here (docs/spec.md §19.4)
 * @property {string} [seating] the same in the service's English words
 * @property {string} [invitation] a private table's invitation, to its opener only
 */

/** @typedef {typeof import('../pkg/fairseed_wasm.js')} Wasm the WebAssembly verifier's exports (web/types/pkg/fairseed_wasm.d.ts) */

/*
 * A hand record (`holdem_hand_v1`), as the service keeps it and `fairseed
 * verify` reads it: `fairseed_holdem::record::HandRecord` (docs/api.md).
 * Read from the wire, so every part the page does not itself make is
 * optional where an altered or older record may lack it.
 */

/**
 * @typedef {object} RecordSeat
 * @property {number} seat
 * @property {SeatPlayer} [player]
 * @property {number} stack chips at the start of the hand
 * @property {string} [engine] an AI's engine, whose decisions derive from the session secret
 * @property {'opener' | 'invited' | 'public' | 'house'} [came] how the person came to the table (docs/spec.md §19.4)
 */

/**
 * @typedef {object} RecordResults
 * @property {number[]} [board]
 * @property {[number, number][]} [returned] seat, chips
 * @property {[number, [number, number]][]} [shown] seat, its two cards
 * @property {PotResult[]} [pots]
 * @property {[number, number][]} [stacks] seat, chips after the hand
 */

/**
 * A hand's deal under `selfpoker_v2`/`selfpoker_v3` (docs/spec.md §17, §20).
 * @typedef {object} RecordDeal
 * @property {string} [scheme]
 * @property {string} [session_commit]
 * @property {string} [table_id]
 * @property {Record<string, string>} [client_seeds] seat → client seed
 * @property {Record<string, string>} [hand_commits] seat → the hash of its per-hand value
 * @property {Record<string, string>} [hand_values] seat → its per-hand value
 * @property {number[]} [withheld] seats that committed and did not reveal
 * @property {string | null} [session_secret] once the session ended
 */

/**
 * @typedef {object} HandRecord
 * @property {string} [scheme]
 * @property {number} hand
 * @property {string | number} seed decimal (a 63-bit seed is read as text)
 * @property {string} [commit]
 * @property {number} [button]
 * @property {RecordSeat[]} [seats]
 * @property {LoggedAction[]} [actions]
 * @property {RecordResults} [results]
 * @property {RecordDeal} [deal]
 * @property {{public?: boolean}} [policy] the table's policy, committed at open (docs/spec.md §19.3)
 * @property {string} [evidence_key] the table's evidence key, 64 hex (docs/spec.md §20.7)
 */

/**
 * One check of a verdict (`fairseed verify --json`).
 * @typedef {object} VerdictCheck
 * @property {string} name
 * @property {boolean} ok
 * @property {string} [detail]
 */

/**
 * A verdict's warning: neither a pass nor a failure (a seat withheld its value).
 * @typedef {object} VerdictWarning
 * @property {string} name
 * @property {string} [detail]
 */

/**
 * One record's verdict (wasm `verify`, as `fairseed verify --json`).
 * @typedef {object} Verdict
 * @property {boolean} valid
 * @property {string} [scheme]
 * @property {string | null} [error]
 * @property {VerdictCheck[]} checks
 * @property {VerdictWarning[]} [warnings]
 */

/**
 * One seat at one step of a replay (every card is public once the seed is).
 * @typedef {object} ReplaySeat
 * @property {number} seat
 * @property {[number, number]} hole
 * @property {number} stack
 * @property {number} street_bet
 * @property {boolean} folded
 */

/**
 * The table after the blinds, then after each action.
 * @typedef {object} ReplayStep
 * @property {LoggedAction | null} action
 * @property {number[]} board
 * @property {number} pot
 * @property {number | null} [to_act]
 * @property {ReplaySeat[]} seats
 * @property {[number, number][]} won seat, chips
 */

/**
 * A record replayed by the core (wasm `holdem_replay`).
 * @typedef {object} Replay
 * @property {boolean} valid
 * @property {string | null} [error]
 * @property {{holes: [number, [number, number]][], board: number[]} | null} deal the deal straight from the seed
 * @property {ReplayStep[]} steps
 */
