import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { OpenAPIHono } from '@hono/zod-openapi'
import type { RouteShape } from '../access/route-matcher.ts'

/** Files a browser may load without a key: the page shell holds no data, the API calls behind it do. */
export const WEB_APP_OPEN_ROUTES: readonly RouteShape[] = [
  '/',
  '/index.html',
  '/assets/*',
  '/favicon.svg',
  '/favicon.ico',
].map((path) => ({ method: 'GET', path }))

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
