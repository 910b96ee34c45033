import { fileURLToPath } from 'node:url'
import { ingestSamples } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'

// GET /metrics as Prometheus scrapes it, after real requests through a real gateway.
const _sample = fileURLToPath(new URL('../../../../data/sample/faq.csv', import.meta.url))
let server: GatewayServer

beforeAll(async () => {
  server = await startGatewayServer('gateway-metrics')
  await ingestSamples(server.fixture, server.dir, ['faq.csv'])
})
afterAll(() => server?.close())

describe('GET /metrics', () => {
  it('reports HTTP latency by declared route, search latency by mode, the queues and the process', async () => {
    const documents = (await (await fetch(`${server.baseUrl}/documents`)).json()) as {
      documents: { id: string }[]
    }
    await fetch(`${server.baseUrl}/documents/${documents.documents[0]?.id}`)
    await fetch(`${server.baseUrl}/search?q=${encodeURIComponent('LEDの寿命')}&mode=keyword`)
    await fetch(`${server.baseUrl}/no-such-page-${Date.now()}`)
    const response = await fetch(`${server.baseUrl}/metrics`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = await response.text()
    expect(text).toMatch(
      /rag_http_request_duration_seconds_count\{[^}]*method="GET",route="\/documents\/:id",status="200"[^}]*\} 1/,
    )
    expect(text).toMatch(/rag_http_request_duration_seconds_count\{[^}]*route="unmatched",status="404"/)
    expect(text).not.toMatch(/no-such-page/)
    expect(text).toMatch(/rag_search_duration_seconds_count\{[^}]*mode="keyword"[^}]*\} 1/)
    expect(text).toMatch(/rag_queue_jobs\{[^}]*queue="ingest\.parse",state="waiting"[^}]*\} 0/)
    expect(text).toMatch(/rag_queue_workers\{[^}]*queue="ingest\.parse"[^}]*\} [1-9]/)
    expect(text).toMatch(/rag_queue_oldest_waiting_seconds\{[^}]*queue="question\.retrieve"/)
    expect(text).toMatch(/^rag_process_resident_memory_bytes\{process="gateway"\} \d/m)
  })
})
