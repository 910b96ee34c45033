import type { Pool } from '@rag/db'

/** What a sign-in under way keeps until its callback: the checks and the PKCE secret. */
export interface SignInRequest {
  state: string
  nonce: string
  codeVerifier: string
  returnTo: string
}

/** A sign-in the provider must come back to within this many minutes. */
const SIGN_IN_MINUTES = 10

export async function saveSignInRequest(pool: Pool, id: string, request: SignInRequest): Promise<void> {
  await pool.query(`DELETE FROM sign_in_requests WHERE created_at < now() - make_interval(mins => $1)`, [
    SIGN_IN_MINUTES,
  ])
  await pool.query(
    'INSERT INTO sign_in_requests (id, state, nonce, code_verifier, return_to) VALUES ($1, $2, $3, $4, $5)',
    [id, request.state, request.nonce, request.codeVerifier, request.returnTo],
  )
}

/** The request a browser's cookie names, taken (a callback is used once), or null. */
export async function takeSignInRequest(pool: Pool, id: string): Promise<SignInRequest | null> {
  const { rows } = await pool.query<{ state: string; nonce: string; codeVerifier: string; returnTo: string }>(
    `DELETE FROM sign_in_requests WHERE id = $1 AND created_at >= now() - make_interval(mins => $2)
     RETURNING state, nonce, code_verifier AS "codeVerifier", return_to AS "returnTo"`,
    [id, SIGN_IN_MINUTES],
  )
  return rows[0] ?? null
}
