import { it } from 'vitest'
import { createGatewayClient } from '@rag/gateway-client'
import { startGatewayServer } from './testing-server.ts'
it('probe', async () => {
  const KEY = 'probe-admin-key-0123456789abcdef'
  const s = await startGatewayServer('probe403', { gateway: { access: { apiKeys: [KEY], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } } })
  const made = await (await fetch(`${s.baseUrl}/keys`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'r', role: 'reader' }) })).json() as { key: string }
  const client = createGatewayClient({ baseUrl: s.baseUrl, apiKey: made.key })
  await Promise.all(Array.from({ length: 8 }, async () => {
    try { await client.upload('/tmp/big.bin', {}) } catch (e) { console.log('ERR', (e as Error).message) }
  }))
  await s.close()
}, 60000)
