import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import {
  CancelledNotificationSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import type { GatewayClient } from '@rag/gateway-client'
import { createMcpServer } from './create-mcp-server.ts'

/**
 * MCP over Streamable HTTP, stateless: each request gets a server and a transport of its own
 * (no session to keep or lose across gateway restarts), acting with the caller's gateway client
 * (its API key). Progress of a long call streams back on that request's event stream.
 *
 * A cancellation arrives as a request of its own, so it would reach a fresh server that knows
 * nothing of the call: the handler keeps the calls in flight (by caller and request id) and stops
 * the one cancelled (an `ask` stops waiting and cancels its question, freeing the LLM), ending
 * its event stream. A client that hangs up stops its calls the same way.
 */
export function createMcpHttpHandler() {
  const inFlight = new Map<string, WebStandardStreamableHTTPServerTransport>()
  const keyOf = (caller: string, id: RequestId) => `${caller}\u0000${typeof id}:${id}`

  return async function handleMcpRequest(
    request: Request,
    client: GatewayClient,
    /** Whose the request is (request ids are only unique per client). */
    caller: string,
    /** Aborts when the caller's key is revoked: its calls are answered with that error and end. */
    revoked?: { signal: AbortSignal; message: string; done: () => void },
  ): Promise<Response> {
    const messages = request.method === 'POST' ? await messagesOf(request) : []
    for (const message of messages) {
      const cancel = CancelledNotificationSchema.safeParse(message)
      const requestId = cancel.success ? cancel.data.params.requestId : undefined
      if (requestId === undefined) continue
      // Closing that call's transport aborts its handler and ends its event stream.
      await inFlight.get(keyOf(caller, requestId))?.close()
    }

    const server = createMcpServer(client, { localFiles: false })
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    const calls = new Map<RequestId, string>()
    for (const message of messages)
      if ('method' in message && 'id' in message) calls.set(message.id, keyOf(caller, message.id))
    const forget = (id: RequestId) => {
      const call = calls.get(id)
      if (call && inFlight.get(call) === transport) inFlight.delete(call)
    }
    // Set before connect: the server chains its own close handling after it.
    transport.onclose = () => {
      for (const id of calls.keys()) forget(id)
      revoked?.done()
    }
    await server.connect(transport)
    for (const call of calls.values()) inFlight.set(call, transport)
    // A call is no longer in flight once its answer has gone out.
    const send = transport.send.bind(transport)
    transport.send = async (message, options) => {
      await send(message, options)
      if (!('method' in message) && 'id' in message && message.id !== undefined) forget(message.id)
    }
    request.signal.addEventListener('abort', () => void transport.close(), { once: true })
    revoked?.signal.addEventListener(
      'abort',
      () =>
        void (async () => {
          for (const id of calls.keys()) {
            if (!inFlight.has(keyOf(caller, id))) continue
            await transport
              .send({ jsonrpc: '2.0', id, error: { code: -32001, message: revoked.message } })
              .catch(() => undefined)
          }
          await transport.close()
        })(),
      { once: true },
    )
    return transport.handleRequest(request)
  }
}

/** The JSON-RPC messages of a POST body (one or a batch); nothing when it is not JSON-RPC (the transport says why). */
async function messagesOf(request: Request): Promise<JSONRPCMessage[]> {
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => undefined)
  const candidates = Array.isArray(body) ? body : [body]
  return candidates.flatMap((candidate) => {
    const parsed = JSONRPCMessageSchema.safeParse(candidate)
    return parsed.success ? [parsed.data] : []
  })
}
