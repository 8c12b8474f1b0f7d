import { describe, it, expect } from 'vitest';
import {
  normalizeCostInput, presentCost, noCost, costDetailsEmpty,
  type Cost, type CurrencyDefaults,
} from '../../src/events/cost.ts';

const USD: CurrencyDefaults = { symbol: '$', code: 'USD', position: 'prefix' };
const EUR: CurrencyDefaults = { symbol: '€', code: 'EUR', position: 'postfix' };
const DASH = ' \u2013 ';

/** Input as a client sends it, through storage, to what the record shows. */
function show(input: unknown, defaults: CurrencyDefaults = USD): Cost {
  const stored = normalizeCostInput(input);
  expect(stored, JSON.stringify(input)).not.toBeNull();
  return presentCost(stored!, defaults);
}

function cost(text: string, symbol: string, position: '' | 'prefix' | 'postfix', values: string[], code = 'USD'): Cost {
  return { cost: text, cost_details: { currency_symbol: symbol, currency_code: code, currency_position: position, values } };
}

const EMPTY: Cost = {
  cost: '',
  cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
};

describe('normalizeCostInput', () => {
  it('keeps strings trimmed, as sent', () => {
    expect(normalizeCostInput(' $23 ')).toEqual(['$23']);
    expect(normalizeCostInput('10 - 20')).toEqual(['10 - 20']);
    expect(normalizeCostInput('Donation')).toEqual(['Donation']);
  });

  it('turns numbers into strings', () => {
    expect(normalizeCostInput(15)).toEqual(['15']);
    expect(normalizeCostInput(12.5)).toEqual(['12.5']);
    expect(normalizeCostInput(0)).toEqual(['0']);
    expect(normalizeCostInput(['0$', 20, '30$'])).toEqual(['0$', '20', '30$']);
  });

  it('gives no cost for empty input', () => {
    expect(normalizeCostInput('')).toEqual([]);
    expect(normalizeCostInput('   ')).toEqual([]);
    expect(normalizeCostInput([])).toEqual([]);
    expect(normalizeCostInput(['', ' '])).toEqual([]);
  });

  it('rejects invalid shapes', () => {
    for (const bad of [
      {}, { a: '1' }, [['1']], [{}], true, false, [true], null, undefined, [null],
      NaN, Infinity, -5, 1e21, 1e-7, ['10', ['20']],
    ]) {
      expect(normalizeCostInput(bad), String(JSON.stringify(bad))).toBeNull();
    }
  });
});

describe('presentCost', () => {
  it('shows no cost for nothing stored', () => {
    expect(presentCost([], USD)).toEqual(EMPTY);
    expect(presentCost([' '], EUR)).toEqual(EMPTY);
    expect(show('')).toEqual(EMPTY);
    expect(show([])).toEqual(EMPTY);
    expect(noCost()).toEqual(EMPTY);
    expect(costDetailsEmpty()).toEqual(EMPTY.cost_details);
  });

  it('returns fresh objects for no cost', () => {
    const a = noCost();
    a.cost_details.values.push('1');
    expect(noCost()).toEqual(EMPTY);
  });

  it('reads the symbol and its position from the text', () => {
    expect(show('$23')).toEqual(cost('$23', '$', 'prefix', ['23']));
    expect(show('20$')).toEqual(cost('20$', '$', 'postfix', ['20']));
    expect(show('€ 12,50')).toEqual(cost('€12.50', '€', 'prefix', ['12.50']));
    expect(show('12 EUR')).toEqual(cost('12 EUR', 'EUR', 'postfix', ['12']));
    expect(show('USD 10')).toEqual(cost('USD 10', 'USD', 'prefix', ['10']));
    expect(show('US$ 5')).toEqual(cost('US$5', 'US$', 'prefix', ['5']));
  });

  it('formats a range min – max', () => {
    expect(show('10 - 20')).toEqual(cost(`$10${DASH}$20`, '$', 'prefix', ['10', '20']));
    expect(show('10–20')).toEqual(cost(`$10${DASH}$20`, '$', 'prefix', ['10', '20']));
    expect(show('10-20 USD')).toEqual(cost(`10 USD${DASH}20 USD`, 'USD', 'postfix', ['10', '20']));
    expect(show('10 – $20')).toEqual(cost(`$10${DASH}$20`, '$', 'prefix', ['10', '20']));
  });

  it('keeps several array values, with zero shown as Free', () => {
    expect(show(['0$', '20$', '30$'])).toEqual(cost(`Free${DASH}30$`, '$', 'postfix', ['0', '20', '30']));
    expect(show(['10', '20$'])).toEqual(cost(`10$${DASH}20$`, '$', 'postfix', ['10', '20']));
  });

  it('takes the mark of the first amount that carries one', () => {
    expect(show('10$ 20€')).toEqual(cost(`10$${DASH}20$`, '$', 'postfix', ['10', '20']));
    expect(show(['5', '€7', '9$'])).toEqual(cost(`€5${DASH}€9`, '€', 'prefix', ['5', '7', '9']));
  });

  it('sorts numerically and removes duplicates', () => {
    expect(show(['30', '5', '12.5'])).toEqual(cost(`$5${DASH}$30`, '$', 'prefix', ['5', '12.5', '30']));
    expect(show(['20$', '20$', '10$'])).toEqual(cost(`10$${DASH}20$`, '$', 'postfix', ['10', '20']));
    expect(show(['20', '20.00'])).toEqual(cost('$20', '$', 'prefix', ['20']));
  });

  it('normalises decimal and thousands separators', () => {
    expect(show('1.234,50 €')).toEqual(cost('1234.50€', '€', 'postfix', ['1234.50']));
    expect(show('$1,234.50')).toEqual(cost('$1234.50', '$', 'prefix', ['1234.50']));
    expect(show('12,50')).toEqual(cost('$12.50', '$', 'prefix', ['12.50']));
    expect(show('12,500')).toEqual(cost('$12500', '$', 'prefix', ['12500']));
    expect(show('1.234.567')).toEqual(cost('$1234567', '$', 'prefix', ['1234567']));
    expect(show('0.500')).toEqual(cost('$0.500', '$', 'prefix', ['0.500']));
    expect(show('23')).toEqual(cost('$23', '$', 'prefix', ['23']));
    expect(show('12.50')).toEqual(cost('$12.50', '$', 'prefix', ['12.50']));
    expect(show(15)).toEqual(cost('$15', '$', 'prefix', ['15']));
  });

  it('reads the English word free as zero', () => {
    expect(show('Free')).toEqual(cost('Free', '$', 'prefix', ['0']));
    expect(show('FREE')).toEqual(cost('Free', '$', 'prefix', ['0']));
    expect(show('0')).toEqual(cost('Free', '$', 'prefix', ['0']));
    expect(show(['0'])).toEqual(cost('Free', '$', 'prefix', ['0']));
    expect(show('Free – 30$')).toEqual(cost(`Free${DASH}30$`, '$', 'postfix', ['0', '30']));
    expect(show('gratis')).toEqual(cost('gratis', '', '', []));
    expect(show('Freedom 10')).toEqual(cost('$10', '$', 'prefix', ['10']));
  });

  it('shows text without any amount as given', () => {
    expect(show('Donation')).toEqual(cost('Donation', '', '', []));
    expect(show(['Donation', 'Pay what you want'])).toEqual(cost('Donation, Pay what you want', '', '', []));
    expect(show('Donation', EUR)).toEqual(cost('Donation', '', '', [], 'EUR'));
  });

  it('does not take plain words for a currency', () => {
    expect(show('from 10')).toEqual(cost('$10', '$', 'prefix', ['10']));
    expect(show('Free 30$')).toEqual(cost(`Free${DASH}30$`, '$', 'postfix', ['0', '30']));
  });

  it('uses the site defaults when no amount carries a mark', () => {
    expect(show('15', EUR)).toEqual(cost('15€', '€', 'postfix', ['15'], 'EUR'));
    expect(show(['30', '5', '12,5'], EUR)).toEqual(cost(`5€${DASH}30€`, '€', 'postfix', ['5', '12.5', '30'], 'EUR'));
    expect(show(['0', '10'], EUR)).toEqual(cost(`Free${DASH}10€`, '€', 'postfix', ['0', '10'], 'EUR'));
    expect(show('$23', EUR)).toEqual(cost('$23', '$', 'prefix', ['23'], 'EUR'));
    expect(show('10', { symbol: 'CHF', code: 'CHF', position: 'prefix' })).toEqual(cost('CHF 10', 'CHF', 'prefix', ['10'], 'CHF'));
    expect(show('10', { symbol: '', code: 'USD', position: 'prefix' })).toEqual(cost('10', '', '', ['10']));
  });

  it('round-trips: the shown cost sent back shows the same record', () => {
    for (const [input, defaults] of [
      ['15', USD], ['15', EUR], [['0$', '30$'], USD], ['10-20 USD', EUR], ['€ 12,50', USD],
      ['Donation', USD], ['1.234,50 €', EUR], [['5', '30'], EUR],
    ] as const) {
      const first = show(input, defaults);
      expect(show(first.cost, defaults), JSON.stringify(input)).toEqual(first);
    }
  });

  it('round-trips a range of three or more to the same display, but only min and max values', () => {
    const first = show(['0$', '20$', '30$']);
    expect(show(first.cost)).toEqual(cost(`Free${DASH}30$`, '$', 'postfix', ['0', '30']));
  });
});
