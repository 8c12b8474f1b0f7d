import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRandom } from '../../bench/vocabulary.ts';
import type { DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { runImport } from '../../src/import/import.command.ts';
import { silentProgress } from '../../src/import/progress.ts';
import { NASTY } from '../fuzz/fuzz-requests.ts';
import { type FakeSite, startFakeSite } from '../helpers/fake-tec-site.ts';
import { openTestDatabase, testConfig } from '../helpers/test-app.ts';

const dialects = (): Array<'sqlite' | 'postgres'> => (process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const ROUNDS = Number(process.env.FUZZ_IMPORT_ROUNDS ?? 3);
// Values a broken or hostile site might send in any field, and ids past what an id column holds.
const ODD: unknown[] = [...NASTY.filter((value) => typeof value !== 'string' || value.length < 20_000), 99999999999, '99999999999', -5, 1.5, { id: 99999999999 }, [{ id: '2147483648' }]];
// A database's or the runtime's own words in a record's failure: its reason should be ours (the record's field
// named), not a statement the database refused nor a value our code could not handle.
const NOT_OURS = /out of range|violates|syntax error|invalid input|invalid byte sequence|SQLITE_|constraint|unterminated|relation "|is not a function|Cannot read prop|is not iterable|undefined|call stack/i;
// Each round's failures on the database run first, by URL: the second must fail the same records.
const failedOn = new Map<string, string[]>();

for (const dialect of dialects()) {
  describe(`importing from a site whose records hold odd values [${dialect}]`, () => {
    let database: DbHandle;
    let site: FakeSite;
    beforeEach(async () => {
      database = await openTestDatabase(dialect);
      await migrateToLatest(database.db);
      site = await startFakeSite({ venues: 6, events: 24 });
    });
    afterEach(async () => {
      await site.close();
      await database.close();
    });

    for (let round = 0; round < ROUNDS; round++) {
      it(`round ${round} (seed ${SEED}): bad records fail alone, in our words; the rest is written whole, each with its lineage`, async () => {
        const r = createRandom(SEED + round);
        // Every record but the first of each kind gets one to three fields replaced (its own id, its references,
        // its dates and texts alike); the first of each stays as the reference sent it.
        for (const list of Object.values(site.records)) {
          for (const record of list.slice(1)) {
            const fields = Object.keys(record);
            for (let n = r.int(1, 3); n > 0; n--) record[r.pick(fields)] = r.pick(ODD);
          }
        }
        const result = await runImport({ source: site.root }, { config: testConfig(), database, progress: silentProgress, source: { timeoutMs: 5000, retries: 0, backoffMs: 1, perPage: 10 } });
        if (process.env.FUZZ_REPORT) console.log(dialect, round, result.summary, result.failures.map((f) => `${f.url} ${f.reason}`));
        // What a reason quotes of the source's own record (after `not a record with an id: `) may say anything.
        const ours = (reason: string) => reason.replace(/^(not a record with an id): .*$/s, '$1');
        for (const failure of result.failures) expect([failure.url, ours(failure.reason)]).not.toEqual([failure.url, expect.stringMatching(NOT_OURS)]);
        for (const [resource, tally] of Object.entries(result.summary)) {
          // The site lists what it shows anonymous callers (a status made odd hides its record, as WordPress would).
          const listed = site.records[resource].filter((record) => record.status === undefined || record.status === 'publish').length;
          expect([resource, tally.created + tally.updated + tally.unchanged + tally.failed]).toEqual([resource, listed]);
          expect([resource, tally.created]).not.toEqual([resource, 0]); // the unchanged first one at least
        }
        // Whatever was written has its lineage row, and no lineage row lacks its record.
        for (const [kind, table] of [['event', 'event'], ['venue', 'venue'], ['organizer', 'organizer']] as const) {
          const records = Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
          const lineage = Number((await sql<{ n: number }>`select count(*) as n from import_lineage where kind = ${kind}`.execute(database.db)).rows[0].n);
          expect([kind, lineage]).toEqual([kind, records]);
        }
        const origin = new URL(site.root).origin; // each run's fake site has its own port
        const failed = result.failures.map((failure) => `${failure.resource} ${failure.url.replace(origin, 'SITE')}`).sort();
        const other = failedOn.get(`${round}:${dialect === 'sqlite' ? 'postgres' : 'sqlite'}`);
        if (other) expect(failed).toEqual(other);
        failedOn.set(`${round}:${dialect}`, failed);
      }, 60_000);
    }
  });
}
