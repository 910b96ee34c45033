import { createHash, randomBytes } from 'node:crypto'
import type { Principal } from '@rag/access'
import type { Redis } from 'ioredis'

/** How long a ticket opens its question's stream (reconnects included). */
export const STREAM_TICKET_SECONDS = 300

/** What a ticket stands for: one question's event stream, as the principal who asked it. */
export interface StreamTicket {
  questionId: string
  principal: Principal
  /** Whose the question is (keyOwner of the request that made the ticket). */
  owner: string
}

/**
 * Tickets for a browser's own EventSource, which cannot send a header: made by the asker with their
 * key (`POST /ask/{id}/stream-ticket`), good for that one question's events for a few minutes, in
 * the URL (`?ticket=`). Kept in Redis under a digest of the ticket (never the ticket), with the
 * installation's prefix; a lost Redis loses only tickets (the client asks for another).
 */
export function streamTickets(redis: Pick<Redis, 'set' | 'get'>, prefix: string) {
  const keyOf = (ticket: string) =>
    `${prefix}:stream-ticket:${createHash('sha256').update(ticket).digest('hex')}`
  return {
    async issue(ticket: StreamTicket): Promise<{ ticket: string; expiresAt: string }> {
      const value = randomBytes(24).toString('base64url')
      await redis.set(keyOf(value), JSON.stringify(ticket), 'EX', STREAM_TICKET_SECONDS)
      return { ticket: value, expiresAt: new Date(Date.now() + STREAM_TICKET_SECONDS * 1000).toISOString() }
    },
    /** The ticket's grant for this question, or null (unknown, expired, or another question's). */
    async redeem(ticket: string, questionId: string): Promise<StreamTicket | null> {
      if (!/^[A-Za-z0-9_-]{20,64}$/.test(ticket)) return null
      const stored = await redis.get(keyOf(ticket))
      if (!stored) return null
      const grant = JSON.parse(stored) as StreamTicket
      return grant.questionId === questionId ? grant : null
    },
  }
}

export type StreamTickets = ReturnType<typeof streamTickets>

/** The question a request for a stream names: GET /ask/{id}/events. */
export const STREAM_PATH = /^\/ask\/([0-9a-f-]{36})\/events$/i
