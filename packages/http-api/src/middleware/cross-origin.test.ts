import { describe, expect, it } from 'vitest'
import { bareApp } from '../testing/bare-app.ts'
import { rejectCrossOrigin } from './cross-origin.ts'

const app = bareApp(rejectCrossOrigin({ allowedOrigins: ['https://app.example'] }))
const post = (headers: Record<string, string>) =>
  app.request('http://gateway.local/documents', { method: 'POST', headers })

describe('rejectCrossOrigin', () => {
  it("refuses a state-changing request another site's page sends, naming it", async () => {
    const refused = await post({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /cross-origin POST refused \(from https:\/\/evil\.example\)/,
    )
    // Another port of the same host is the same site but another origin.
    expect((await post({ 'sec-fetch-site': 'same-site', origin: 'http://gateway.local:8080' })).status).toBe(
      403,
    )
  })

  it('lets through its own pages, configured origins, typed addresses and programs', async () => {
    expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(200)
    expect((await post({ 'sec-fetch-site': 'none' })).status).toBe(200)
    expect((await post({ 'sec-fetch-site': 'cross-site', origin: 'https://app.example' })).status).toBe(200)
    expect((await post({})).status).toBe(200)
    // An older browser without Sec-Fetch-Site: its Origin decides.
    expect((await post({ origin: 'http://gateway.local' })).status).toBe(200)
    expect((await post({ origin: 'null' })).status).toBe(403)
  })

  it('never stands in the way of reading', async () => {
    const read = await app.request('http://gateway.local/documents', {
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    })
    expect(read.status).toBe(200)
  })
})
