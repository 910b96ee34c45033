import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { allowedMethods } from './method-not-allowed.ts'

describe('allowedMethods', () => {
  it('lists the methods routed for a path, HEAD wherever GET is, ignoring middleware', () => {
    const app = new Hono()
    app.use('*', async (_c, next) => next())
    app.get('/documents', (c) => c.text(''))
    app.post('/documents', (c) => c.text(''))
    app.delete('/documents/:id', (c) => c.text(''))
    app.get('/documents/:id/sections', (c) => c.text(''))
    expect(allowedMethods(app, '/documents')).toEqual(['GET', 'HEAD', 'POST'])
    expect(allowedMethods(app, '/documents/abc')).toEqual(['DELETE'])
    expect(allowedMethods(app, '/documents/abc/sections')).toEqual(['GET', 'HEAD'])
    expect(allowedMethods(app, '/nothing')).toEqual([])
  })
})
