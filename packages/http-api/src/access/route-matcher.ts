import { METHOD_NAME_ALL } from 'hono/router'
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

/**
 * The methods some route answers on a path (HEAD wherever GET is, as hono answers it), matched
 * by hono's router; middleware (ALL) and catch-alls route nothing.
 */
export function methodsRouted(routes: readonly RouteShape[]): (path: string) => string[] {
  const router = new TrieRouter<string>()
  for (const route of routes) {
    if (route.method === METHOD_NAME_ALL || route.path.includes('*')) continue
    // Every route under ALL, carrying its method: one match lists the methods of the path.
    router.add(METHOD_NAME_ALL, routerPath(route.path), route.method)
  }
  return (path) => {
    const methods = new Set(router.match('GET', path)[0].map(([method]) => method))
    if (methods.has('GET')) methods.add('HEAD')
    return [...methods].sort()
  }
}
