// JSON with exact integers: numbers JavaScript cannot hold exactly (payouts,
// balances) are read as BigInt from their source text.
export function parseExact(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  });
}

/** JSON text of a value read by `parseExact`: a BigInt is written back digit for digit. */
export function exactJson(value) {
  // JSON.rawJSON (ES2025) is not in TypeScript's library yet.
  const raw = /** @type {any} */ (JSON).rawJSON;
  return JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? raw(v.toString()) : v));
}
