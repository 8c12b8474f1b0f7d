/** French texts, keyed by the English text (see translate.ts). */
export const fr: Record<string, string> = {};
