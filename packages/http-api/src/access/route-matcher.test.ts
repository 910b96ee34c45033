import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { methodsRouted, routeMatcher } from './route-matcher.ts'

describe('methodsRouted', () => {
  it('lists the methods routed for a path, HEAD wherever GET is, ignoring middleware', () => {
    const app = new Hono()
    app.use('*', async (_c, next) => next())
    app.get('/documents', (c) => c.text(''))
    app.post('/documents', (c) => c.text(''))
    app.delete('/documents/:id', (c) => c.text(''))
    app.get('/documents/:id/sections', (c) => c.text(''))
    const allowed = methodsRouted(app.routes)
    expect(allowed('/documents')).toEqual(['GET', 'HEAD', 'POST'])
    expect(allowed('/documents/abc')).toEqual(['DELETE'])
    expect(allowed('/documents/abc/sections')).toEqual(['GET', 'HEAD'])
    expect(allowed('/nothing')).toEqual([])
  })
})

describe('routeMatcher', () => {
  it('matches OpenAPI-style and router-style paths by method, HEAD as GET', () => {
    const isOpen = routeMatcher([
      { method: 'get', path: '/healthz' },
      { method: 'post', path: '/auth/oidc/{step}' },
      { method: 'GET', path: '/assets/*' },
    ])
    expect(isOpen('GET', '/healthz')).toBe(true)
    expect(isOpen('HEAD', '/healthz')).toBe(true)
    expect(isOpen('POST', '/healthz')).toBe(false)
    expect(isOpen('POST', '/auth/oidc/callback')).toBe(true)
    expect(isOpen('POST', '/auth/oidc/callback/more')).toBe(false)
    expect(isOpen('GET', '/assets/index-1234.js')).toBe(true)
    expect(isOpen('GET', '/documents')).toBe(false)
  })
})
