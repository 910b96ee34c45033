import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { FEEDBACK_REASONS, FEEDBACK_VERDICTS, MAX_FEEDBACK_COMMENT_CHARS } from '@rag/api-contract'
import type { GatewayClient } from '@rag/gateway-client'
import { z } from 'zod'
import { guarded, structured } from './tool-result.ts'

/** give_feedback: an agent (or the person through it) says whether an answer of ask was right. */
export function registerFeedbackTool(server: McpServer, client: GatewayClient) {
  server.registerTool(
    'give_feedback',
    {
      title: 'Say whether an answer was right',
      description:
        'Records 👍 (up) or 👎 (down) on an answer ask gave (its question id), with why and a comment: reviewers turn it into evaluation cases. Saying it again replaces it.',
      inputSchema: {
        question_id: z.uuid().describe('The id ask returned'),
        verdict: z.enum(FEEDBACK_VERDICTS).describe('up: right; down: wrong'),
        reason: z
          .enum(FEEDBACK_REASONS)
          .optional()
          .describe('wrong-source, should-have-refused, should-have-answered or incomplete'),
        comment: z
          .string()
          .max(MAX_FEEDBACK_COMMENT_CHARS)
          .optional()
          .describe('What was wrong, in a sentence'),
      },
      outputSchema: {
        id: z.string(),
        verdict: z.enum(FEEDBACK_VERDICTS),
        reason: z.enum(FEEDBACK_REASONS).nullable(),
      },
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ question_id, verdict, reason, comment }) =>
      guarded(async () => {
        const saved = await client.giveFeedback(question_id, {
          verdict,
          ...(reason ? { reason } : {}),
          ...(comment ? { comment } : {}),
        })
        return structured({ id: saved.id, verdict: saved.verdict, reason: saved.reason })
      }),
  )
}
