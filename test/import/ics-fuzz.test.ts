import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../bench/vocabulary.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { ImportError, runImport } from '../../src/import/import.command.ts';
import { silentProgress } from '../../src/import/progress.ts';
import { openTestDatabase, testConfig } from '../helpers/test-app.ts';

const dialects = (): Array<'sqlite' | 'postgres'> => (process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const ROUNDS = Number(process.env.FUZZ_IMPORT_ROUNDS ?? 3);
const files = mkdtempSync(join(tmpdir(), 'cal-ics-fuzz-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));

// The reference's own list feed (site/list.ics.txt: an HTTP answer), unfolded into its content lines.
const answer = readFileSync('/work/shared/reference/site/list.ics.txt', 'utf8');
const lines = answer.slice(answer.indexOf('BEGIN:VCALENDAR')).replace(/\r?\n[ \t]/g, '').split(/\r?\n/).filter(Boolean);
// Values and lines a broken or hostile calendar might hold.
const ODD_VALUES = ['', 'x', '99999999T999999', '20270230T100000', '20270101T250000Z', '2027', '19000101T000000', '99991231T235959Z', 'a\u0000b',
  'é'.repeat(5000), 'FREQ=SECONDLY;COUNT=999999999', 'FREQ=DAILY;UNTIL=garbage', 'FREQ=YEARLY;BYMONTH=13', 'FREQ=WEEKLY;INTERVAL=0', 'mailto:',
  'P-1D', 'PT99999999H', '-1', '1e308', ';;;', ':', '\\', '<script>alert(1)</script>'];
const ODD_LINES = ['DTSTART;TZID=Mars/Olympus:20270101T100000', 'DTSTART;VALUE=DATE:2027', 'RRULE:FREQ=DAILY;COUNT=5000', 'RECURRENCE-ID:20270101T100000',
  'RECURRENCE-ID;TZID=Europe/Berlin:19990101T000000', 'EXDATE:garbage', 'RDATE;VALUE=PERIOD:20270101T100000Z/PT1H', 'ORGANIZER;CN=:mailto:',
  'UID:', 'DURATION:PT1H', 'DURATION:garbage', 'END:VEVENT', 'BEGIN:VEVENT', 'LAST-MODIFIED:garbage', 'CATEGORIES:,,,', 'GEO:91;181', 'X-ODD;=:x'];

/** The feed with some of its events' lines changed, dropped, or joined by odd ones; deterministic for a seed. */
function mutated(seed: number): string {
  const r = createRandom(seed);
  const out: string[] = [];
  let inEvent = false;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') inEvent = true;
    if (line === 'END:VEVENT') inEvent = false;
    const editable = inEvent && line !== 'BEGIN:VEVENT';
    const roll = r.next();
    if (editable && roll < 0.1) out.push(`${line.slice(0, Math.max(line.indexOf(':'), 0))}:${r.pick(ODD_VALUES)}`);
    else if (editable && roll < 0.14) continue; // dropped
    else out.push(line);
    if (editable && r.next() < 0.05) out.push(r.pick(ODD_LINES));
  }
  return `${out.join('\r\n')}\r\n`;
}

// A database's or the runtime's own words in a record's failure, rather than ours naming the field.
const NOT_OURS = /out of range|violates|syntax error|invalid input|invalid byte sequence|SQLITE_|constraint|is not a function|Cannot read prop|is not iterable|undefined|call stack/i;

for (const dialect of dialects()) {
  describe(`importing an iCalendar file with odd lines [${dialect}]`, () => {
    for (let round = 0; round < ROUNDS; round++) {
      it(`round ${round} (seed ${SEED}): each bad event fails alone in our words, or the file is refused as a whole; what is written is whole`, async () => {
        const database = await openTestDatabase(dialect);
        try {
          await migrateToLatest(database.db);
          const file = join(files, `round-${dialect}-${round}.ics`);
          writeFileSync(file, mutated(SEED + round));
          const result = await runImport({ source: file, ics: true }, { config: testConfig(), database, progress: silentProgress }).catch((error: Error) => error);
          if (process.env.FUZZ_REPORT) console.log(round, result instanceof Error ? result.stack?.split('\n').slice(0, 6).join('\n') : [result.summary, result.failures]);
          if (result instanceof Error) {
            // Only a file that is no calendar at all may stop the run, and it says so.
            expect([result instanceof ImportError, result.message]).toEqual([true, expect.stringMatching(/is not an iCalendar file/)]);
            return;
          }
          for (const failure of result.failures) expect([failure.url, failure.reason]).not.toEqual([failure.url, expect.stringMatching(NOT_OURS)]);
          const events = Number((await database.db.selectFrom('event').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
          expect(events).toBeGreaterThan(0);
        } finally {
          await database.close();
        }
      }, 60_000);
    }
  });
}
