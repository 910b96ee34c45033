import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { OpenAPIHono } from '@hono/zod-openapi'
import { PLATFORM_VERSION } from '@rag/api-contract'
import { publicOrigin } from '../middleware/public-origin.ts'

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>RAG gateway API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true })</script>
</body>
</html>`

/**
 * The spec at /openapi.json, generated from the routes' own zod schemas (so it cannot drift from
 * what is validated), and Swagger UI at /docs, served from the swagger-ui-dist package: no CDN.
 */
export function mountApiDocs(app: OpenAPIHono, trustedProxies: readonly string[] = []) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', { type: 'http', scheme: 'bearer' })
  // The server is this gateway as the client reached it (through a TLS proxy: https), so generated
  // clients need no base URL.
  app.doc31('/openapi.json', (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'RAG gateway',
      version: PLATFORM_VERSION,
      description:
        'Upload documents, search them and ask questions answered from them only, with page/row sources. ' +
        'When API_KEY is set, send `Authorization: Bearer <key>` (or `X-API-Key`).',
    },
    servers: [{ url: publicOrigin(c, trustedProxies), description: 'This gateway' }],
    security: [{ apiKey: [] }],
  }))
  app.get('/docs', (c) => c.html(DOCS_PAGE))
  app.use(
    '/docs/assets/*',
    serveStatic({
      root: swaggerUiDir,
      rewriteRequestPath: (path) => path.replace(/^\/docs\/assets/, ''),
    }),
  )
}
