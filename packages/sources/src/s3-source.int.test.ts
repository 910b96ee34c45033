import { createServer, type IncomingHttpHeaders } from 'node:http'
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { s3Source } from './s3-source.ts'
import { LOOPBACK, type S3Server, startS3Server } from './testing.ts'

// The listing of a bucket as s3rver (on loopback) pages it: 1,000 objects a page.
let s3: S3Server
let client: S3Client
beforeAll(async () => {
  s3 = await startS3Server(['many'])
  client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  })
  for (let start = 0; start < 1205; start += 100)
    await Promise.all(
      Array.from({ length: Math.min(100, 1205 - start) }, (_, i) =>
        client.send(new PutObjectCommand({ Bucket: 'many', Key: `a/${start + i}.txt`, Body: 'x' })),
      ),
    )
})
afterAll(async () => {
  client?.destroy()
  await s3?.close()
})

const list = async (maxItems: number) => {
  const reader = s3Source(
    { bucket: 'many', prefix: 'a/', endpoint: s3.endpoint },
    { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    { maxItems, maxBytes: 1000, requestTimeoutMs: 20_000, policy: { allowPrivate: LOOPBACK } },
  )
  const keys: string[] = []
  try {
    for await (const item of reader.list(new Map(), new AbortController().signal)) keys.push(item.key)
  } finally {
    await reader.close?.()
  }
  return keys
}

describe('an S3 listing', () => {
  it('reads every page, each object once', async () => {
    const keys = await list(5000)
    expect(keys).toHaveLength(1205)
    expect(new Set(keys).size).toBe(1205)
  })

  it('is refused past the item limit (a listing that pages forever ends)', async () => {
    await expect(list(1100)).rejects.toThrow(/more than 1100 objects under s3:\/\/many\/a\//)
  })
})

describe('an S3 source without keys', () => {
  it('is read anonymously, never signed with the identity of the process (its AWS_* variables)', async () => {
    // The process has an AWS identity, as a platform on a cloud host does.
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAPLATFORMIDENTITY0')
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'the-platform-role-secret')
    const seen: IncomingHttpHeaders[] = []
    const server = createServer((request, response) => {
      seen.push(request.headers)
      response.writeHead(200, { 'content-type': 'application/xml' })
      response.end(
        '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>public</Name><IsTruncated>false</IsTruncated>' +
          '<Contents><Key>open.txt</Key><ETag>"1"</ETag><Size>4</Size></Contents></ListBucketResult>',
      )
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    const reader = s3Source(
      { bucket: 'public', endpoint: `http://127.0.0.1:${port}` },
      {},
      { maxItems: 10, maxBytes: 1000, requestTimeoutMs: 20_000, policy: { allowPrivate: LOOPBACK } },
    )
    try {
      const keys: string[] = []
      for await (const item of reader.list(new Map(), new AbortController().signal)) keys.push(item.key)
      expect(keys).toEqual(['open.txt'])
      expect(seen.length).toBeGreaterThan(0)
      for (const headers of seen) {
        expect(headers.authorization).toBeUndefined()
        expect(JSON.stringify(headers)).not.toContain('AKIAPLATFORMIDENTITY0')
      }
    } finally {
      vi.unstubAllEnvs()
      await reader.close?.()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
