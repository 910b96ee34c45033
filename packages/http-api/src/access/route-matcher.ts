import { TrieRouter } from 'hono/router/trie-router'

/** A route as the router knows it: a method (or ALL) and a path (`/documents/{id}` or `/documents/:id`). */
export interface RouteShape {
  method: string
  path: string
}

/** `/documents/{id}` (the OpenAPI way) → `/documents/:id` (the router's). */
const routerPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1')

/**
 * Whether a request reaches one of `routes`, matched by hono's own router (the one that serves
 * them), so a list of open paths cannot disagree with the routes it names.
 */
export function routeMatcher(routes: readonly RouteShape[]): (method: string, path: string) => boolean {
  const router = new TrieRouter<true>()
  for (const route of routes) router.add(route.method.toUpperCase(), routerPath(route.path), true)
  return (method, path) => router.match(method === 'HEAD' ? 'GET' : method, path)[0].length > 0
}
