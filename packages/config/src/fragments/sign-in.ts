import { ROLES, type Role } from '@rag/api-contract/enums'
import { defineFragment } from '../define-config.ts'
import { integer, optionalText, optionalUrl, text } from '../env-values.ts'

/** What one value of the provider's claim grants: `hr=reader:hr,legal`, `rag-admins=admin`. */
export interface ClaimGrant {
  value: string
  role: Role
  /** null: every collection. */
  collections: string[] | null
}

export interface SignInSection {
  /** Absent: no single sign-on (API keys only). */
  oidc?: {
    issuer: string
    clientId: string
    clientSecret?: string
    providerName: string
    scopes: string
    claim: string
    grants: ClaimGrant[]
    sessionHours: number
    clockToleranceSeconds: number
  }
}

/**
 * `value=role[:collection,collection|*]` pairs separated by `;`. A value matches one of the
 * claim's values (a group name or id, an e-mail, a domain); no collections: every one.
 */
export function parseClaimGrants(raw: string): { grants: ClaimGrant[]; problems: string[] } {
  const grants: ClaimGrant[] = []
  const problems: string[] = []
  for (const pair of raw.split(';').map((part) => part.trim())) {
    if (!pair) continue
    const match = pair.match(/^(.+?)\s*=\s*([a-z]+)\s*(?::(.*))?$/)
    const role = match?.[2] as Role | undefined
    if (!match?.[1] || !role || !ROLES.includes(role)) {
      problems.push(`"${pair}" is not value=role[:collections] with a role of ${ROLES.join(', ')}`)
      continue
    }
    const listed = (match[3] ?? '*')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
    grants.push({
      value: match[1].trim(),
      role,
      collections: listed.length === 0 || listed.includes('*') ? null : listed,
    })
  }
  return { grants, problems }
}

export const signIn = defineFragment({
  shape: {
    // OpenID Connect single sign-on for the web app (authorization code + PKCE). The issuer URL
    // (its /.well-known/openid-configuration is read); register <gateway>/auth/oidc/callback as
    // the redirect URI. Needs API_KEY (sign-in is a way to get access, not the only one).
    OIDC_ISSUER: optionalUrl(['https:', 'http:']),
    OIDC_CLIENT_ID: optionalText(),
    // A confidential client's secret; empty: a public client (PKCE alone).
    OIDC_CLIENT_SECRET: optionalText(),
    // The name on the sign-in button (empty: the issuer's host).
    OIDC_PROVIDER_NAME: text(''),
    OIDC_SCOPES: text('openid profile email'),
    // The ID token claim whose values are mapped (groups; Entra ID: groups or roles; Google: hd or email).
    OIDC_GROUPS_CLAIM: text('groups'),
    // value=role[:collections] pairs separated by ';', e.g. "rag-admins=admin;hr=reader:hr,legal;eng=editor:*".
    // A person with no matching value cannot sign in; several matches: the highest role, all their collections.
    OIDC_GROUP_GRANTS: text(''),
    // How long a sign-in lasts before the provider is asked again.
    OIDC_SESSION_HOURS: integer(12, { min: 1, max: 720 }),
    // How far the provider's clock may be from this one when its tokens' times are checked.
    OIDC_CLOCK_TOLERANCE_SECONDS: integer(60, { min: 0, max: 3600 }),
  },
  check: (env, report) => {
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) report('OIDC_CLIENT_ID', 'is needed with OIDC_ISSUER')
    if (env.OIDC_CLIENT_ID && !env.OIDC_ISSUER) report('OIDC_ISSUER', 'is needed with OIDC_CLIENT_ID')
    const { grants, problems } = parseClaimGrants(env.OIDC_GROUP_GRANTS)
    for (const problem of problems) report('OIDC_GROUP_GRANTS', problem)
    // The gateway's own API_KEY (same process): without it the gateway is open on loopback, and
    // a sign-in would restrict nothing.
    if (env.OIDC_ISSUER && !(env as { API_KEY?: string }).API_KEY) {
      report(
        'OIDC_ISSUER',
        'needs API_KEY set too (without it the gateway is open to this machine, signed in or not)',
      )
    }
    if (env.OIDC_ISSUER && grants.length === 0 && problems.length === 0) {
      report('OIDC_GROUP_GRANTS', 'is empty: with OIDC_ISSUER, say which claim values grant which role')
    }
  },
  read: (env): SignInSection =>
    env.OIDC_ISSUER && env.OIDC_CLIENT_ID
      ? {
          oidc: {
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID,
            ...(env.OIDC_CLIENT_SECRET ? { clientSecret: env.OIDC_CLIENT_SECRET } : {}),
            providerName: env.OIDC_PROVIDER_NAME || new URL(env.OIDC_ISSUER).host,
            scopes: env.OIDC_SCOPES,
            claim: env.OIDC_GROUPS_CLAIM,
            grants: parseClaimGrants(env.OIDC_GROUP_GRANTS).grants,
            sessionHours: env.OIDC_SESSION_HOURS,
            clockToleranceSeconds: env.OIDC_CLOCK_TOLERANCE_SECONDS,
          },
        }
      : {},
})
