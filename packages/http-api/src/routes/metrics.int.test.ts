import { ingestSamples } from '@rag/ingest/testing'
import { describe, expect } from 'vitest'
import { gatewayTest as it } from '../testing/gateway-fixtures.ts'

// GET /metrics as Prometheus scrapes it, after real requests through a gateway of the test's own.
describe('GET /metrics', () => {
  it('reports HTTP latency by declared route, search latency by mode, the queues and the process', async ({
    gateway,
  }) => {
    await ingestSamples(gateway.fixture, gateway.uploadDir, ['faq.csv'])
    const fetch = (path: string) => gateway.app.request(path)
    const documents = (await (await fetch('/documents')).json()) as { documents: { id: string }[] }
    await fetch(`/documents/${documents.documents[0]?.id}`)
    await fetch(`/search?q=${encodeURIComponent('LEDの寿命')}&mode=keyword`)
    await fetch(`/no-such-page-${Date.now()}`)
    const response = await fetch('/metrics')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = await response.text()
    expect(text).toMatch(
      /rag_http_request_duration_seconds_count\{[^}]*method="GET",route="\/documents\/\{id\}",status="200"[^}]*\} 1/,
    )
    expect(text).toMatch(/rag_http_request_duration_seconds_count\{[^}]*route="unmatched",status="404"/)
    expect(text).not.toMatch(/no-such-page/)
    expect(text).toMatch(/rag_search_duration_seconds_count\{[^}]*mode="keyword"[^}]*\} 1/)
    expect(text).toMatch(/rag_queue_jobs\{[^}]*queue="ingest\.parse",state="waiting"[^}]*\} 0/)
    expect(text).toMatch(/rag_queue_workers\{[^}]*queue="ingest\.parse"[^}]*\} [1-9]/)
    expect(text).toMatch(/rag_queue_oldest_waiting_seconds\{[^}]*queue="question\.retrieve"/)
    expect(text).toMatch(/^rag_process_resident_memory_bytes\{process="gateway"\} \d/m)
    // Only counters end in _total (promtool's rule): Node's active-handle gauges lose the suffix.
    const gaugesEndingInTotal = [...text.matchAll(/^# TYPE (\S+_total) gauge$/gm)].map((match) => match[1])
    expect(gaugesEndingInTotal).toEqual([])
    expect(text).toMatch(/^rag_nodejs_active_handles\{type="\w+",process="gateway"\} \d+$/m)
  })
})
