import type { Hono } from 'hono'

/** The methods a path is routed for (HEAD wherever GET is, as Hono answers it), or none. */
export function allowedMethods(app: Pick<Hono, 'routes'>, path: string): string[] {
  const methods = new Set<string>()
  for (const route of app.routes) {
    // Middleware and catch-alls are registered as ALL or with wildcards: they route nothing.
    if (route.method === 'ALL' || route.path.includes('*')) continue
    if (patternOf(route.path).test(path)) methods.add(route.method)
  }
  if (methods.has('GET')) methods.add('HEAD')
  return [...methods].sort()
}

const patterns = new Map<string, RegExp>()
/** `/documents/:id/sections` → a RegExp matching one segment per parameter. */
function patternOf(routePath: string): RegExp {
  let pattern = patterns.get(routePath)
  if (!pattern) {
    const source = routePath
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')
    pattern = new RegExp(`^${source}/?$`)
    patterns.set(routePath, pattern)
  }
  return pattern
}
