import { GetObjectCommand, ListObjectsCommand, S3Client } from '@aws-sdk/client-s3'
import { NodeHttpHandler } from '@smithy/node-http-handler'
import { guardedAgents } from './network/guarded-agents.ts'
import type { OutboundPolicy } from './network/outbound-policy.ts'
import {
  describeError,
  ItemError,
  type ReadLimits,
  type SourceItem,
  SourceListingError,
  type SourceReader,
} from './source-listing.ts'

export interface S3Settings {
  bucket: string
  prefix?: string
  region?: string
  /** Another S3-compatible service (MinIO, R2, Wasabi, a local test server): its URL. */
  endpoint?: string
  /** `bucket` in the path rather than the host name (MinIO and most self-hosted servers). */
  forcePathStyle?: boolean
}

export interface S3Credentials {
  accessKeyId?: string
  secretAccessKey?: string
  sessionToken?: string
}

/**
 * Objects under a prefix of a bucket, listed a page (1,000) at a time; an object's version is its
 * ETag (on a versioned bucket the listing gives the current version, a deleted object is gone).
 * A listing past `maxItems`, or one whose pages do not move on (a server paging forever), is refused.
 */
export function s3Source(
  settings: S3Settings,
  credentials: S3Credentials,
  limits: ReadLimits & { policy: OutboundPolicy },
): SourceReader {
  const agents = guardedAgents(limits.policy)
  const given = credentials.accessKeyId && credentials.secretAccessKey
  const client = new S3Client({
    region: settings.region ?? 'us-east-1',
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle ?? Boolean(settings.endpoint),
    // The source's own keys, or none: a bucket without keys is read anonymously (unsigned), never
    // with the identity of the process (its environment, profile files or instance role), which
    // would let any editor read whatever the platform's own role may read.
    ...(given
      ? {
          credentials: {
            accessKeyId: credentials.accessKeyId as string,
            secretAccessKey: credentials.secretAccessKey as string,
            ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
          },
        }
      : {
          // Placeholders that are never used (the signer below signs nothing): given, they keep
          // the SDK from looking for the process's own credentials.
          credentials: { accessKeyId: 'anonymous', secretAccessKey: 'anonymous' },
          signer: { sign: async (request) => request },
        }),
    requestHandler: new NodeHttpHandler({ httpAgent: agents.httpAgent, httpsAgent: agents.httpsAgent }),
    maxAttempts: 2,
  })
  const prefix = settings.prefix ?? ''
  const timed = (signal: AbortSignal) =>
    AbortSignal.any([signal, AbortSignal.timeout(limits.requestTimeoutMs)])
  return {
    async *list(_known, signal) {
      // ListObjects (v1), paged by the last key: every S3-compatible server has it (s3rver's v2
      // paging fails past 1,000 objects; some older servers lack v2).
      let marker: string | undefined
      let count = 0
      for (;;) {
        let page: {
          Contents?: { Key?: string; ETag?: string; Size?: number }[]
          NextMarker?: string
          IsTruncated?: boolean
        }
        try {
          page = await client.send(
            new ListObjectsCommand({
              Bucket: settings.bucket,
              Prefix: prefix,
              Marker: marker,
            }),
            { abortSignal: timed(signal) },
          )
        } catch (error) {
          throw new SourceListingError(
            `could not list s3://${settings.bucket}/${prefix}: ${describeError(error)}`,
          )
        }
        for (const object of page.Contents ?? []) {
          if (!object.Key || object.Key.endsWith('/')) continue
          if (++count > limits.maxItems)
            throw new SourceListingError(
              `more than ${limits.maxItems} objects under s3://${settings.bucket}/${prefix}`,
            )
          yield {
            key: object.Key,
            version: `etag:${object.ETag ?? ''}`,
            size: object.Size,
          } satisfies SourceItem
        }
        if (!page.IsTruncated) return
        const next = page.NextMarker ?? page.Contents?.at(-1)?.Key
        // A server that pages forever gives a page that does not move on: refused, not followed.
        if (next === undefined || (marker !== undefined && next <= marker))
          throw new SourceListingError(`the listing of s3://${settings.bucket}/${prefix} does not move on`)
        marker = next
      }
    },
    async read(item, maxBytes, signal) {
      if (item.size !== undefined && item.size > maxBytes)
        throw new ItemError(`${item.size} bytes, more than the ${maxBytes} allowed`)
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: item.key }), {
          abortSignal: timed(signal),
        })
        if ((object.ContentLength ?? 0) > maxBytes)
          throw new ItemError(`${object.ContentLength} bytes, more than the ${maxBytes} allowed`)
        const data = await object.Body?.transformToByteArray()
        if (!data) throw new ItemError('the object has no body')
        return data
      } catch (error) {
        if (error instanceof ItemError) throw error
        throw new ItemError(`could not read it: ${describeError(error)}`)
      }
    },
    async close() {
      client.destroy()
      agents.destroy()
    },
  }
}
