import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// s3rver: an S3 API on loopback over a folder (no versioning, no multipart listing quirks).
import S3rver from 's3rver'

export interface S3Server {
  endpoint: string
  accessKeyId: string
  secretAccessKey: string
  close(): Promise<void>
}

/** npm's s3rver on a free loopback port with `buckets` made, its objects in a scratch folder. */
export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'rag-s3-'))
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  })
  const address = (await server.run()) as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    // s3rver's one account (it checks signatures against it).
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async close() {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
