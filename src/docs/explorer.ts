import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

// Swagger UI's own distribution package, served as it ships: nothing of it is copied into this repository.
const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

function page(docUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>cal-events API explorer</title>
  <link rel="stylesheet" href="explorer/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="explorer/swagger-ui-bundle.js"></script>
  <script>window.ui = SwaggerUIBundle({ url: ${JSON.stringify(docUrl)}, dom_id: '#swagger-ui' });</script>
</body>
</html>`;
}

/** An interactive API page (Swagger UI) over the generated document, at `<namespace>/explorer`. */
export function registerExplorer(app: FastifyInstance, base: string) {
  const cache = new Map<string, Buffer>();
  app.get(`${base}/explorer`, { config: { hidden: true } }, (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page('doc')),
  );
  app.get(`${base}/explorer/:asset`, { config: { hidden: true } }, async (request, reply) => {
    const { asset } = request.params as { asset: string };
    const type = ASSETS[asset];
    if (!type) return reply.callNotFound();
    let body = cache.get(asset);
    if (!body) {
      body = await readFile(join(dist, asset));
      cache.set(asset, body);
    }
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
  });
}
