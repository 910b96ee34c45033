import { describe, expect, it } from 'vitest'
import { routeMatcher } from './route-matcher.ts'

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
