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
 */
