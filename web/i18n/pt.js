// Português (Brasil): the same keys as en.js.
export const pt = {
};
