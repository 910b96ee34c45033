import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

/**
 * A source's credentials at rest: AES-256-GCM under a key derived from SOURCES_SECRET, sealed as
 * `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url). The key id (a hash of the key, not the key)
 * says which secret sealed a value, so rotation knows what to re-seal and a wrong secret is said
 * as such instead of as garbage.
 */
export interface CredentialKeys {
  /** Seals new values and opens its own. */
  current: string
  /** Secrets rotated out: open what they sealed (re-sealed under `current` by rotateCredentials). */
  previous?: string[]
}

const keyOf = (secret: string) => createHash('sha256').update(`rag-sources\0${secret}`).digest()
const idOf = (key: Buffer) => createHash('sha256').update(key).digest('base64url').slice(0, 8)

export class CredentialsError extends Error {
  override name = 'CredentialsError'
}

export function sealCredentials(keys: CredentialKeys, value: Record<string, string>): string {
  const key = keyOf(keys.current)
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
  return [
    'v1',
    idOf(key),
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    sealed.toString('base64url'),
  ].join('.')
}

export function openCredentials(keys: CredentialKeys, sealed: string): Record<string, string> {
  const [version, id, iv, tag, data] = sealed.split('.')
  if (version !== 'v1' || !id || !iv || !tag || data === undefined)
    throw new CredentialsError('the stored credentials are not in a known format')
  const key = [keys.current, ...(keys.previous ?? [])].map(keyOf).find((candidate) => idOf(candidate) === id)
  if (!key)
    throw new CredentialsError(
      'the stored credentials were sealed with another SOURCES_SECRET: set it (or list it in SOURCES_SECRET_PREVIOUS) or enter the credentials again',
    )
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  try {
    const text = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    )
    return JSON.parse(text) as Record<string, string>
  } catch {
    throw new CredentialsError('the stored credentials do not open (altered?): enter them again')
  }
}

/** Whether a sealed value was sealed under the current secret (else rotation re-seals it). */
export const sealedWithCurrent = (keys: CredentialKeys, sealed: string) =>
  sealed.split('.')[1] === idOf(keyOf(keys.current))
