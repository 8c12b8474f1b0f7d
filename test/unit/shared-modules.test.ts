import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The files a test worker runs share their modules (vitest.config.ts, `isolate: false`): a module mocked in one
// file would stay mocked for the files after it, or find the real module loaded already. So no test mocks one;
// a test that needs other data gives it to a factory (i18n/translate.ts `createTranslator`).
const MOCKS = /\bvi\s*\.\s*(?:mock|doMock)\s*\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? testFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []);
}

describe('the test suite, its files sharing their modules', () => {
  it('mocks no module', () => {
    // This file names a mock below, to show the pattern finds one.
    const files = testFiles('test').filter((file) => !file.endsWith('shared-modules.test.ts'));
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((file) => MOCKS.test(readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('would find a mock', () => {
    expect(MOCKS.test("vi.mock('../../src/i18n/catalog.fr.ts', () => ({}));")).toBe(true);
    expect(MOCKS.test("vi.doMock('x')")).toBe(true);
    expect(MOCKS.test('vi.fn()')).toBe(false);
  });
});
