import { credentialOf } from '@rag/access'
import type { RevocationChannel } from '@rag/queue'
import type { Context } from 'hono'
import { type KeyResolver, presentedKey } from './api-key.ts'

/** How often an open stream asks Postgres whether its key still holds (a missed broadcast). */
export const RECHECK_MS = 15_000

/**
 * Ends what a revoked key or an ended sign-in still holds open (event streams, MCP calls): at
 * once when the revocation is announced (on this replica, or any through Redis), and at the
 * latest RECHECK_MS later when the key no longer resolves (an announcement lost, a session expired).
 */
export class Revocations {
  readonly #listeners = new Map<string, Set<() => void>>()

  constructor(
    private readonly resolve: KeyResolver,
    private readonly channel?: RevocationChannel,
  ) {
    channel?.listen((credential) => this.#ended(credential))
  }

  /** Tells every replica (this one at once) that this credential no longer holds. */
  async announce(credential: string): Promise<void> {
    this.#ended(credential)
    await this.channel?.publish(credential)
  }

  /** A signal that aborts when the request's key or sign-in is revoked; `stop()` when done. */
  watch(c: Context): { signal: AbortSignal; stop: () => void } {
    const controller = new AbortController()
    const principal = c.get('principal')
    const key = presentedKey(c)
    if (!principal || !key) return { signal: controller.signal, stop: () => {} }
    const credential = credentialOf(principal)
    const end = () => controller.abort(new Error('revoked'))
    const set = this.#listeners.get(credential) ?? new Set()
    this.#listeners.set(credential, set.add(end))
    const recheck = setInterval(() => {
      this.resolve(key)
        .then((still) => (still ? undefined : end()))
        .catch(() => undefined)
    }, RECHECK_MS)
    recheck.unref()
    const stop = () => {
      clearInterval(recheck)
      set.delete(end)
      if (set.size === 0) this.#listeners.delete(credential)
    }
    controller.signal.addEventListener('abort', stop, { once: true })
    return { signal: controller.signal, stop }
  }

  #ended(credential: string) {
    for (const end of [...(this.#listeners.get(credential) ?? [])]) end()
  }
}

/** What a stream says before it ends because its key was revoked. */
export const REVOKED_MESSAGE =
  'this API key was revoked or this sign-in ended; the stream ends here (sign in again or use another key)'
