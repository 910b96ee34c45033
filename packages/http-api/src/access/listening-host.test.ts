import { describe, expect, it } from 'vitest'
import { listeningHost } from './listening-host.ts'

describe('where the gateway listens', () => {
  it('without API_KEY: loopback only, whatever GATEWAY_HOST asks, and says so', () => {
    const wide = listeningHost([], '0.0.0.0')
    expect(wide.host).toBe('127.0.0.1')
    expect(wide.warnings).toEqual([
      expect.stringMatching(/loopback only.*GATEWAY_HOST=0\.0\.0\.0 is not used/),
    ])
    expect(listeningHost([], '127.0.0.1')).toMatchObject({ host: '127.0.0.1', warnings: [] })
  })

  it('with API_KEY: where it is asked to, warning of a short key beyond loopback only', () => {
    expect(listeningHost(['short'], '0.0.0.0')).toMatchObject({
      host: '0.0.0.0',
      warnings: [expect.stringMatching(/1 key\(s\) shorter than 16 characters/)],
    })
    expect(listeningHost(['short'], '127.0.0.1').warnings).toEqual([])
    expect(listeningHost(['a-key-long-enough-to-share'], '0.0.0.0').warnings).toEqual([])
  })
})
