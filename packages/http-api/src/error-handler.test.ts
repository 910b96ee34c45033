import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { HttpError } from './http-error.ts'
import { bareApp } from './testing/bare-app.ts'

describe('the error handler', () => {
  it('answers an HttpError with its status and {error: {message, ...details}}', async () => {
    const app = bareApp(async () => {
      throw new HttpError(413, 'too large', { field: 'file' })
    })
    const response = await app.request('/')
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ error: { message: 'too large', field: 'file' } })
  })

  it("names a body that does not parse, and hides a bug's details behind 500", async () => {
    const malformed = bareApp(async () => {
      throw new HTTPException(400, { message: 'Malformed JSON in request body' })
    })
    expect(await (await malformed.request('/')).json()).toEqual({
      error: { message: 'the body is not valid JSON' },
    })
    const bug = bareApp(async () => {
      throw new Error('secret internals')
    })
    const response = await bug.request('/')
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ error: { message: 'internal error' } })
  })

  it('closes a connection whose refused body may still be on it', async () => {
    const app = bareApp(async () => {
      throw new HttpError(413, 'too large')
    })
    const withBody = await app.request('/', { method: 'POST', body: 'x', headers: { 'content-length': '1' } })
    expect(withBody.headers.get('connection')).toBe('close')
    expect((await app.request('/')).headers.get('connection')).toBeNull()
  })
})
