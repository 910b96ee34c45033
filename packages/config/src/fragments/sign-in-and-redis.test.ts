import { describe, expect, it } from 'vitest'
import { ConfigError } from '../define-config.ts'
import { gatewayConfig } from '../processes.ts'
import { parseClaimGrants } from './sign-in.ts'

const problemsOf = (env: Record<string, string>) => {
  try {
    gatewayConfig.parse({ DATABASE_URL: 'postgres://127.0.0.1/rag', ...env })
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('single sign-on settings', () => {
  it('reads claim grants: the role, the collections, every collection for * or none listed', () => {
    expect(parseClaimGrants('rag-admins=admin; hr = reader:hr,legal ;eng=editor:*;all=reader')).toEqual({
      grants: [
        { value: 'rag-admins', role: 'admin', collections: null },
        { value: 'hr', role: 'reader', collections: ['hr', 'legal'] },
        { value: 'eng', role: 'editor', collections: null },
        { value: 'all', role: 'reader', collections: null },
      ],
      problems: [],
    })
  })

  it('names the variable for an unknown role, a missing client id, grants left empty or keys not set', () => {
    expect(parseClaimGrants('hr=owner:hr').problems[0]).toMatch(/"hr=owner:hr" is not value=role/)
    const issuer = { OIDC_ISSUER: 'https://idp.example.com/realms/acme' }
    expect(problemsOf(issuer).map((problem) => problem.variable)).toEqual(
      expect.arrayContaining(['OIDC_CLIENT_ID', 'OIDC_GROUP_GRANTS', 'OIDC_ISSUER']),
    )
    expect(
      problemsOf({
        ...issuer,
        OIDC_CLIENT_ID: 'rag',
        OIDC_GROUP_GRANTS: 'hr=reader:hr',
        API_KEY: 'k'.repeat(20),
      }),
    ).toEqual([])
  })
})

describe('Redis behind Sentinel', () => {
  it('makes one redis-sentinel address of the sentinels, the name and the password', () => {
    const config = gatewayConfig.parse({
      DATABASE_URL: 'postgres://127.0.0.1/rag',
      REDIS_SENTINELS: '10.0.0.1:26379,10.0.0.2:26379',
      REDIS_SENTINEL_NAME: 'rag-primary',
      REDIS_PASSWORD: 's3cret',
    })
    expect(config.redis.url).toBe('redis-sentinel://:s3cret@10.0.0.1:26379,10.0.0.2:26379/rag-primary')
    expect(config.redis.explicit).toBe(true)
  })

  it('names the variable when the two settings do not go together, or clash with REDIS_URL', () => {
    expect(problemsOf({ REDIS_SENTINELS: '10.0.0.1:26379' }).map((p) => p.variable)).toEqual([
      'REDIS_SENTINEL_NAME',
    ])
    expect(problemsOf({ REDIS_SENTINEL_NAME: 'x' }).map((p) => p.variable)).toEqual(['REDIS_SENTINELS'])
    expect(
      problemsOf({
        REDIS_SENTINELS: 'a:1',
        REDIS_SENTINEL_NAME: 'x',
        REDIS_URL: 'redis://127.0.0.1:6379',
      }).map((p) => p.variable),
    ).toEqual(['REDIS_URL'])
    expect(problemsOf({ REDIS_URL: 'redis-sentinel://a:1' }).map((p) => p.variable)).toEqual(['REDIS_URL'])
  })
})
