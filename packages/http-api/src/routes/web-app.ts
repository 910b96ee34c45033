import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { OpenAPIHono } from '@hono/zod-openapi'

/**
 * The web app (apps/web, built by Vite into `dir`) at `/`, its files under /assets. Not built yet:
 * `/` says how to build it instead of a bare 404.
 */
export function mountWebApp(app: OpenAPIHono, dir: string | undefined) {
  if (!dir || !existsSync(join(dir, 'index.html'))) {
    app.get('/', (c) =>
      c.text('The web app is not built: run `pnpm --filter @rag/web build` (pnpm start does it).', 503),
    )
    return
  }
  // Vite names assets by content hash: cache them for good; the page itself is checked each time.
  app.use(
    '/assets/*',
    serveStatic({
      root: dir,
      onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  )
  app.get('/favicon.svg', serveStatic({ root: dir }))
  // What a browser (or a bookmark, a feed reader) asks for by itself: not a 404 in the log each time.
  app.get('/favicon.ico', (c) => c.redirect('/favicon.svg', 301))
  app.get(
    '/',
    serveStatic({
      root: dir,
      path: 'index.html',
      onFound: (_path, c) => c.header('Cache-Control', 'no-cache'),
    }),
  )
}
