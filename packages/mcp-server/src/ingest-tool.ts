import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { collectFiles, type GatewayClient } from '@rag/gateway-client'
import pLimit from 'p-limit'
import { z } from 'zod'
import { progressReporter, reportWhileWaiting } from './progress.ts'
import { guarded, structured } from './tool-result.ts'

/** Uploads at once (the gateway's rate limit is waited out by the client, as Retry-After says). */
const UPLOADS_AT_ONCE = 4

/** ingest_path: files of the machine the server runs on, so only over stdio (a local client). */
export function registerIngestTool(server: McpServer, client: GatewayClient, timeoutMs: number) {
  server.registerTool(
    'ingest_path',
    {
      title: 'Ingest local files',
      description:
        'Ingest a file or a folder (recursively) of this machine and wait until every document is ready or failed. Files of types no parser reads are listed under skipped. Re-ingesting unchanged files changes nothing.',
      inputSchema: {
        path: z.string().min(1).describe('An absolute path to a file or folder'),
        collection: z.string().optional().describe('The collection the documents join'),
      },
      outputSchema: {
        documents: z.array(
          z.object({
            file: z.string().describe('The name given to the document (its path inside the folder)'),
            id: z.string().nullable(),
            status: z.string().describe('ready, failed, or rejected (the gateway refused the upload)'),
            chunks: z.number().nullable(),
            error: z.string().nullable(),
          }),
        ),
        skipped: z
          .array(z.object({ path: z.string(), reason: z.string() }))
          .describe('Files left out, and why'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    ({ path, collection }, extra) =>
      guarded(async () => {
        const { files, skipped, ignored } = await collectFiles([path])
        if (files.length === 0)
          throw new Error(
            skipped[0] ? `${skipped[0].path}: ${skipped[0].reason}` : `${path}: nothing to ingest`,
          )
        const report = progressReporter(extra)
        const limit = pLimit(UPLOADS_AT_ONCE)
        let done = 0
        const documents = await Promise.all(
          files.map((file) =>
            limit(async () => {
              try {
                const uploaded = await client.upload(file.path, { collection, name: file.name })
                const final = await client.waitForDocument(uploaded.id, {
                  onPoll: reportWhileWaiting(
                    (message) => report(message, undefined),
                    (document) => `${file.name}: ${document.status} (${done} of ${files.length} done)`,
                  ),
                  signal: extra.signal,
                  timeoutMs,
                })
                return {
                  file: file.name,
                  id: final.id,
                  status: final.status,
                  chunks: final.chunkCount,
                  error: final.error,
                }
              } catch (error) {
                const reason = error instanceof Error ? error.message : String(error)
                return { file: file.name, id: null, status: 'rejected', chunks: null, error: reason }
              } finally {
                done += 1
              }
            }),
          ),
        )
        return structured({ documents, skipped: [...skipped, ...ignored] })
      }),
  )
}
