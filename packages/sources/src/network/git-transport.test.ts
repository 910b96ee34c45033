import { describe, expect, it } from 'vitest'
import { gitTransport } from './git-transport.ts'
import type { OutboundPolicy } from './outbound-policy.ts'

const policy: OutboundPolicy = {
  allowPrivate: [],
  resolve: async (host) =>
    ({ 'git.example.com': ['203.0.113.7'], 'inside.example': ['10.0.0.8'] })[host] ?? [],
  isPrivate: (address) => address.startsWith('10.') || address.startsWith('127.') || address === '::1',
}

describe('how git is told to reach a repository', () => {
  it('pins https to the checked address, follows no redirect, and scopes the token to its origin', async () => {
    const route = await gitTransport('https://git.example.com/team/handbook.git', policy, { token: 't0ken' })
    expect(route.kind).toBe('http')
    expect(route.allowProtocol).toBe('https')
    expect(route.config).toEqual([
      ['http.followRedirects', 'false'],
      ['http.curloptResolve', 'git.example.com:443:203.0.113.7'],
      [
        'http.https://git.example.com/.extraHeader',
        `Authorization: Basic ${Buffer.from('x-access-token:t0ken').toString('base64')}`,
      ],
    ])
  })

  it('sends ssh, in both its forms, to the checked address under the host’s own name', async () => {
    for (const url of [
      'ssh://git@git.example.com:2222/team/handbook.git',
      'git@git.example.com:team/handbook.git',
    ]) {
      const route = await gitTransport(url, policy)
      expect(route.kind).toBe('ssh')
      expect(route.sshOptions).toEqual(
        expect.arrayContaining([
          '-o HostName=203.0.113.7',
          '-o HostKeyAlias=git.example.com',
          '-o ProxyCommand=none',
        ]),
      )
    }
  })

  it('refuses what resolves inside, and URLs curl and WHATWG would read differently', async () => {
    await expect(gitTransport('https://inside.example/repo.git', policy)).rejects.toThrow(
      /inside\.example resolves to 10\.0\.0\.8, a private address: .*SOURCES_ALLOW_PRIVATE/,
    )
    await expect(gitTransport('git@inside.example:repo.git', policy)).rejects.toThrow(/10\.0\.0\.8/)
    await expect(gitTransport('http://example.com\\@127.0.0.1:8080/repo.git', policy)).rejects.toThrow(
      /backslash/,
    )
    await expect(gitTransport('http://git.example.com%2f@127.0.0.1/repo.git', policy)).rejects.toThrow(
      /host must be a plain name/,
    )
    await expect(gitTransport('git://git.example.com/repo.git', policy)).rejects.toThrow(
      /git:\/\/ is not fetched/,
    )
  })

  it('lets an admin’s listed private host through, by name or by range', async () => {
    const listed = { ...policy, allowPrivate: ['10.0.0.0/8'] }
    expect((await gitTransport('https://inside.example/repo.git', listed)).config[1]).toEqual([
      'http.curloptResolve',
      'inside.example:443:10.0.0.8',
    ])
  })
})
