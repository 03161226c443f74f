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
