import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createDb } from '../../src/db/create-db.ts';
import { serializerCompiler } from '../../src/http/serialization.ts';
import { testConfig } from '../helpers/test-app.ts';

const schema = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const compile = () => serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' });

// Serializers are compiled once a schema in the process (an app's start took 140-180 ms compiling them for
// every route again), and serialize as Fastify's default does (fast-json-stringify): keys of the schema only.
it('compiles a schema once, and every app uses it', async () => {
  expect(compile()).toBe(compile());
  expect(compile()({ id: '7', name: 'Hall', secret: 'x' })).toBe('{"id":7,"name":"Hall"}');
  expect(serializerCompiler({ schema: { ...schema }, method: 'GET', url: '/x', httpStatus: '200' })).not.toBe(compile());
  const database = createDb('sqlite::memory:');
  const app = await buildApp({ config: testConfig(), database, logger: false });
  try {
    expect(app.serializerCompiler).toBe(serializerCompiler);
  } finally {
    await app.close();
    await database.close();
  }
});
