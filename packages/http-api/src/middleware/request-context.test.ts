import { createLogger } from '@rag/log'
import { Hono } from 'hono'
import { expect, it } from 'vitest'
import { requestContext } from './request-context.ts'

it('logs a successful request at debug, and a refused or failed one at info or error', async () => {
  const lines: { level: number; msg: string; status: number }[] = []
  const logger = createLogger({
    name: 'test',
    level: 'info',
    destination: { write: (line: string) => lines.push(JSON.parse(line)) },
  })
  const app = new Hono()
  app.use(requestContext({ logger }))
  app.get('/ok', (c) => c.text('ok'))
  app.get('/missing', (c) => c.text('no', 404))
  app.get('/broken', (c) => c.text('no', 500))
  await app.request('/ok')
  await app.request('/missing')
  await app.request('/broken')
  // pino levels: 30 info, 50 error.
  expect(lines.map(({ level, msg, status }) => [level, msg, status])).toEqual([
    [30, 'request', 404],
    [50, 'request', 500],
  ])
})
