// What the page's modules share through globalThis: the Tables tab's hook,
// through which the live table reports each hand it sees (js/tables.js).
export {};

declare global {
  var fairseedTables: {
    /** A hand's commitment, seen before its cards. */
    seen(hand: { scheme: string; label: string; commitment: string | null }): void;
    /** The hand's seed, revealed at its end. */
    revealed(hand: { scheme: string; label: string; seed: string | null | undefined }): void;
    /** Asks the service for new hands and records now. */
    poll(): Promise<unknown>;
  } | undefined;
}
