import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

/** A tool's result: the structured content (checked against the tool's output schema) and the same as JSON text for clients that read text only. */
export const structured = (value: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  structuredContent: value,
})

/** A failing call is an MCP tool error with the reason, never a crash of the server. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run()
  } catch (error) {
    return {
      content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
      isError: true,
    }
  }
}
