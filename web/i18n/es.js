// Español: the same keys as en.js.
export const es = {
};
