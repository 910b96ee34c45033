import { describe, expect, it } from 'vitest'
import { formatSentinelUrl, parseSentinelUrl } from './redis-sentinel-url.ts'

describe('a Redis reached through Sentinel, as one address', () => {
  it('round-trips the sentinels, the primary name and the password', () => {
    const url = formatSentinelUrl(['10.0.0.1:26379', 'sentinel-b', '[::1]:26380'], 'my primary', 'p@ss')
    expect(parseSentinelUrl(url)).toEqual({
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-b', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'my primary',
      db: 0,
      password: 'p@ss',
    })
  })

  it('reads a database number, and refuses what is not such an address', () => {
    expect(parseSentinelUrl('redis-sentinel://a:1,b:2/mymaster/3')?.db).toBe(3)
    expect(parseSentinelUrl('redis://127.0.0.1:6379')).toBeNull()
    expect(parseSentinelUrl('redis-sentinel://a:1,b:2')).toBeNull()
    expect(parseSentinelUrl('redis-sentinel://a b:1/m')).toBeNull()
  })
})
