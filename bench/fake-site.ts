// The fake The Events Calendar site of the tests, in a process of its own for the `import` scenario: a real
// source answers from another machine, so serving pages must not share the importing process's one thread.
// Run as `node --import tsx bench/fake-site.ts <events>`; prints the REST root once it listens.
import { startFakeSite } from '../test/helpers/fake-tec-site.ts';

const site = await startFakeSite({ venues: 50, events: Number(process.argv[2]) });
process.stdout.write(`${site.root}\n`);
process.on('SIGTERM', () => void site.close().then(() => process.exit(0)));
