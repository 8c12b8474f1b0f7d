/** German texts, keyed by the English text (see translate.ts). */
export const de: Record<string, string> = {};
