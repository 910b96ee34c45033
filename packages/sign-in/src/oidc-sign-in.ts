import type { SignInSection } from '@rag/config'
import * as oidc from 'openid-client'
import { claimValues, grantsFor } from './claim-grants.ts'
import { SignInError } from './sign-in-error.ts'

export type OidcSettings = NonNullable<SignInSection['oidc']>

/** The secrets a sign-in keeps (server side) between sending the browser off and its return. */
export interface PendingSignIn {
  state: string
  nonce: string
  codeVerifier: string
}

/** Who the provider vouched for, mapped to this installation's role and collections. */
export interface SignedInPerson {
  subject: string
  name: string
  role: 'reader' | 'editor' | 'admin'
  collections: string[] | null
  groups: string[]
}

export interface OidcSignIn {
  providerName: string
  /** Whether the provider answers its discovery now (checked at most every few seconds). */
  status(): Promise<{ reachable: true } | { reachable: false; reason: string }>
  /** Where to send the browser, and what to keep for its return. */
  begin(redirectUri: string): Promise<{ url: string; pending: PendingSignIn }>
  /** The provider's answer at the callback: the code exchanged (PKCE), the ID token checked. */
  finish(callbackUrl: URL, pending: PendingSignIn): Promise<SignedInPerson>
}

/** How long one answer about the provider's health is believed. */
const STATUS_MS = 5_000
/** Seconds the provider has to answer a request (discovery, token exchange, userinfo). */
const REQUEST_SECONDS = 5

/**
 * OpenID Connect sign-in with openid-client: discovery (again when it failed), authorization
 * code with PKCE (S256), state and nonce checked, the ID token verified with the configured clock
 * tolerance, the groups claim read from the ID token or else from userinfo, then mapped.
 */
export function oidcSignIn(settings: OidcSettings): OidcSignIn {
  let config: Promise<oidc.Configuration> | undefined
  let checked: { at: number; result: Awaited<ReturnType<OidcSignIn['status']>> } | undefined
  const issuer = new URL(settings.issuer)

  const discover = async () => {
    const metadata: Partial<oidc.ClientMetadata> = {
      ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}),
      [oidc.clockTolerance]: settings.clockToleranceSeconds,
    }
    return oidc.discovery(
      issuer,
      settings.clientId,
      metadata,
      settings.clientSecret ? undefined : oidc.None(),
      {
        timeout: REQUEST_SECONDS,
        // An http:// issuer (a provider on this machine or a private network) is the operator's choice.
        ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
      },
    )
  }
  const configuration = () => {
    config ??= discover().catch((error: unknown) => {
      config = undefined
      throw unreachable(settings, error)
    })
    return config
  }

  return {
    providerName: settings.providerName,
    async status() {
      if (checked && Date.now() - checked.at < STATUS_MS) return checked.result
      // A fresh discovery: a provider that was up may be down now, and the reverse.
      config = undefined
      const result = await configuration().then(
        () => ({ reachable: true }) as const,
        (error: unknown) => ({ reachable: false, reason: (error as Error).message }) as const,
      )
      checked = { at: Date.now(), result }
      return result
    },
    async begin(redirectUri) {
      const found = await configuration()
      const pending = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      }
      const url = oidc.buildAuthorizationUrl(found, {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
      })
      return { url: url.href, pending }
    },
    async finish(callbackUrl, pending) {
      const found = await configuration()
      if (callbackUrl.searchParams.get('state') !== pending.state) {
        throw new SignInError(
          'state-mismatch',
          'the answer from the sign-in provider does not belong to the sign-in this browser started; sign in again',
        )
      }
      const tokens = await oidc
        .authorizationCodeGrant(found, callbackUrl, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        })
        .catch((error: unknown) => {
          throw exchangeFailure(settings, error)
        })
      const claims = tokens.claims()
      if (!claims) throw new SignInError('token-invalid', 'the sign-in provider sent no ID token')
      let values: unknown = claims[settings.claim]
      let profile: Record<string, unknown> = claims
      if (values === undefined) {
        // Many providers put groups in userinfo only (the ID token stays small).
        profile = await oidc.fetchUserInfo(found, tokens.access_token, claims.sub).catch((error: unknown) => {
          throw exchangeFailure(settings, error)
        })
        values = profile[settings.claim]
      }
      const groups = claimValues(values)
      const granted = grantsFor(groups, settings.grants)
      if (!granted) {
        throw new SignInError(
          'no-grant',
          `your account is known to ${settings.providerName}, but none of its ${settings.claim} is granted access here; ask an administrator`,
        )
      }
      const text = (key: string) => (typeof profile[key] === 'string' ? (profile[key] as string) : undefined)
      return {
        subject: `${issuer.host}|${claims.sub}`,
        name: text('name') ?? text('preferred_username') ?? text('email') ?? claims.sub,
        groups,
        ...granted,
      }
    },
  }
}

function unreachable(settings: OidcSettings, error: unknown): SignInError {
  const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message
  return new SignInError(
    'provider-unreachable',
    `the sign-in provider ${settings.providerName} (${settings.issuer}) does not answer (${cause}); API keys still work`,
  )
}

/** What went wrong exchanging the code or checking the token, said for a person. */
function exchangeFailure(settings: OidcSettings, error: unknown): SignInError {
  if (error instanceof SignInError) return error
  const { code, error: oauthError } = error as { code?: string; error?: string }
  if (code === 'OAUTH_AUTHORIZATION_RESPONSE_ERROR') {
    return new SignInError(
      'provider-refused',
      `${settings.providerName} did not sign you in (${oauthError ?? 'refused'}); sign in again`,
    )
  }
  if (oauthError === 'invalid_grant') {
    return new SignInError(
      'code-rejected',
      'the sign-in code expired or was already used (a sign-in must be finished within minutes); sign in again',
    )
  }
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
    return new SignInError(
      'clock-skew',
      `the sign-in token's times do not fit this server's clock (more than OIDC_CLOCK_TOLERANCE_SECONDS=${settings.clockToleranceSeconds} s apart); check both clocks`,
    )
  }
  if (code === undefined || (error as { cause?: unknown }).cause instanceof Error) {
    return unreachable(settings, error)
  }
  return new SignInError(
    'token-invalid',
    `the sign-in provider's answer failed a check: ${(error as Error).message}`,
  )
}
