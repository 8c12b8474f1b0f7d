// Event cost: input normalisation and the `cost` / `cost_details` an event record shows.
// We store the cost texts as sent (trimmed) and derive everything at read time, so the formatted
// `cost` a GET returns can be sent back as an update and yields the same record (API.md §5.2).

export interface CurrencyDefaults { symbol: string; code: string; position: 'prefix' | 'postfix' }
export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: 'prefix' | 'postfix' | '';
  values: string[];
}
export interface Cost { cost: string; cost_details: CostDetails }

/** The details of an event without cost (also what protected events show in lists). */
export function costDetailsEmpty(): CostDetails {
  return { currency_symbol: '', currency_code: '', currency_position: '', values: [] };
}

/** What an event without cost shows. A fresh object each time, so callers may mutate it. */
export function noCost(): Cost {
  return { cost: '', cost_details: costDetailsEmpty() };
}

/**
 * The cost input as clients send it (a string, a number, or an array of them) normalised to stored
 * strings: trimmed, empty ones dropped, so `""` and `[]` both give `[]` (no cost). null for an invalid
 * shape: objects, nested arrays, booleans, null, and numbers no text could have written (NaN,
 * negatives, exponent notation, which would otherwise be read as several amounts).
 */
export function normalizeCostInput(input: unknown): string[] | null {
  const items = Array.isArray(input) ? input : [input];
  const out: string[] = [];
  for (const item of items) {
    let text: string;
    if (typeof item === 'string') text = item.trim();
    else if (typeof item === 'number' && Number.isFinite(item) && item >= 0 && !/e/i.test(String(item))) {
      text = String(item);
    } else return null;
    if (text !== '') out.push(text);
  }
  return out;
}

// Digits with `.`/`,` between them; anything else (spaces, hyphens, en dashes, slashes) separates
// amounts, which is how `10 - 20` and `10–20` become two values.
const AMOUNT = /\d+(?:[.,]\d+)*/g;
// A currency mark is a currency-sign character (with letters glued to it: `R$`, `US$`) or an
// ISO 4217-style code of three capitals. Plain words (`from`, `Donation`, `Free`) must not be taken
// for a symbol, hence no "any non-digit text" rule.
const PREFIX_MARK = /(\p{L}*\p{Sc}\p{L}*|(?<!\p{L})\p{Lu}{3})\s*$/u;
const POSTFIX_MARK = /^\s*(\p{L}*\p{Sc}\p{L}*|\p{Lu}{3}(?!\p{L}))/u;
// Only the English word counts as zero: the reference's own output writes zero as "Free".
const FREE = /(?<!\p{L})free(?!\p{L})/iu;

/** An amount token as a plain decimal string: `1.234,50` → `1234.50`, `12,500` → `12500`. */
function normalizeAmount(token: string): string {
  const seps = token.replace(/\d/g, '');
  if (seps === '') return token;
  const last = seps[seps.length - 1];
  const lastAt = token.lastIndexOf(last);
  const intPart = token.slice(0, lastAt);
  const fraction = token.slice(lastAt + 1);
  // The last separator is a decimal mark when the other kind also occurs (`1.234,50`), or when it
  // occurs once and is not followed by exactly three digits (`12,50`); a lone `0` before it cannot
  // start a thousands group (`0.500`). Otherwise every separator groups thousands (`12,500`, `1.234.567`).
  const mixed = seps.includes('.') && seps.includes(',');
  const single = seps.length === 1;
  const decimal = mixed || (single && (fraction.length !== 3 || intPart === '0'));
  if (!decimal) return token.replace(/[.,]/g, '');
  return `${intPart.replace(/[.,]/g, '')}.${fraction}`;
}

interface Parsed { values: string[]; symbol: string; position: 'prefix' | 'postfix' | '' }

/** Every amount in the texts, and the mark of the first amount that carries one. */
function parseTexts(texts: string[]): Parsed {
  const found: string[] = [];
  let symbol = '';
  let position: Parsed['position'] = '';
  for (const text of texts) {
    if (FREE.test(text)) found.push('0');
    let prevEnd = 0;
    for (const m of text.matchAll(AMOUNT)) {
      const start = m.index;
      const end = start + m[0].length;
      found.push(normalizeAmount(m[0]));
      if (symbol === '') {
        // The prefix is looked for only since the previous amount, so `10$ 20$` does not read the
        // first `$` as a prefix of 20.
        const pre = PREFIX_MARK.exec(text.slice(prevEnd, start));
        const post = pre ? null : POSTFIX_MARK.exec(text.slice(end));
        if (pre) [symbol, position] = [pre[1], 'prefix'];
        else if (post) [symbol, position] = [post[1], 'postfix'];
      }
      prevEnd = end;
    }
  }
  // Ascending by amount; equal amounts (`20`, `20.00`) keep the first form met.
  const values: string[] = [];
  for (const v of found.sort((a, b) => Number(a) - Number(b))) {
    if (values.length === 0 || Number(values[values.length - 1]) !== Number(v)) values.push(v);
  }
  return { values, symbol, position };
}

function formatAmount(value: string, symbol: string, position: Parsed['position']): string {
  if (Number(value) === 0) return 'Free';
  if (symbol === '') return value;
  // Codes are written apart from the amount (`USD 10`, `12 EUR`); signs are glued (`$23`, `20$`).
  const gap = /^\p{L}+$/u.test(symbol) ? ' ' : '';
  return position === 'prefix' ? `${symbol}${gap}${value}` : `${value}${gap}${symbol}`;
}

/** What a record shows for the stored cost strings. */
export function presentCost(stored: string[], defaults: CurrencyDefaults): Cost {
  const texts = stored.map((s) => s.trim()).filter((s) => s !== '');
  if (texts.length === 0) return noCost();
  const parsed = parseTexts(texts);
  if (parsed.values.length === 0) {
    // Text without any amount (`Donation`) is shown as written, and no symbol is shown.
    const details = Object.assign(costDetailsEmpty(), { currency_code: defaults.code });
    return { cost: texts.join(', '), cost_details: details };
  }
  // Our decision (the reference leaves the details empty here): without a mark in the input the
  // site's symbol is shown, and the details say what is shown.
  // A site without a symbol shows bare amounts, so no position either.
  const symbol = parsed.symbol !== '' ? parsed.symbol : defaults.symbol;
  const position = parsed.position !== '' ? parsed.position : symbol === '' ? '' : defaults.position;
  const { values } = parsed;
  const min = formatAmount(values[0], symbol, position);
  const max = formatAmount(values[values.length - 1], symbol, position);
  return {
    cost: values.length === 1 ? min : `${min} \u2013 ${max}`,
    cost_details: { currency_symbol: symbol, currency_code: defaults.code, currency_position: position, values },
  };
}
