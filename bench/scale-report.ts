import { markdownTable, resultTable, type RunReport, summaryLine, textTable, writeResults } from './report.ts';

const fixed = (value: number | undefined, digits: number) => (value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : '-');

/** Per scenario: p50, p99 and req/s at each size, and p50 at the largest over p50 at the smallest. */
function growth(reports: RunReport[]): { headers: string[]; rows: string[][] } {
  const sizes = reports.map((r) => r.events);
  const first = reports[0];
  const last = reports[reports.length - 1];
  const label = (events: number) => (events >= 1_000_000 ? `${events / 1_000_000}M` : events >= 1000 ? `${events / 1000}k` : String(events));
  const headers = [
    'scenario',
    `p50 ${label(last.events)}/${label(first.events)}`,
    ...sizes.map((n) => `p50 ms ${label(n)}`),
    ...sizes.map((n) => `p99 ms ${label(n)}`),
    ...sizes.map((n) => `req/s ${label(n)}`),
    ...sizes.map((n) => `ratio ${label(n)}`),
  ];
  const rows = first.scenarios.map((scenario) => {
    const at = reports.map((r) => r.scenarios.find((s) => s.name === scenario.name));
    const p50s = at.map((s) => s?.service.p50);
    return [
      scenario.name,
      fixed((p50s[p50s.length - 1] ?? NaN) / (p50s[0] ?? NaN), 2),
      ...p50s.map((v) => fixed(v, 2)),
      ...at.map((s) => fixed(s?.service.p99, 2)),
      ...at.map((s) => fixed(s?.service.rps, 0)),
      ...at.map((s) => fixed(s?.ratio, 3)),
    ];
  });
  return { headers, rows };
}

/** Prints each size's table and the growth table; writes `bench/results/<timestamp>-scale.json` and `.md`. */
export function writeScale(reports: RunReport[]): string {
  const { headers, rows } = growth(reports);
  for (const report of reports) process.stdout.write(`\n${summaryLine(report)}\n\n${resultTable(report.scenarios)}\n`);
  process.stdout.write(`\nHow latency grows with the number of events:\n\n${textTable(headers, rows)}\n\n`);
  const rss = reports.map((r) => `${r.events} events: server peak RSS ${r.serverPeakRssMb.toFixed(0)} MB`).join('; ');
  process.stdout.write(`${rss}\n\n`);
  const md = [
    `# cal-events scale run, ${reports[0].startedAt}`,
    '',
    'p50 at the largest size over p50 at the smallest (the list target: within 1.5x from 10k to 1M events).',
    '',
    markdownTable(headers, rows),
    '',
    rss,
    '',
    ...reports.flatMap((r) => [`## ${r.events} events`, '', summaryLine(r), '', '```', resultTable(r.scenarios), '```', '']),
  ].join('\n');
  const stamp = `${reports[0].startedAt.replace(/[:.]/g, '-')}-scale`;
  return writeResults(stamp, { growth: { headers, rows }, runs: reports }, md);
}
