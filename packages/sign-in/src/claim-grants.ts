import { ROLES, type Role } from '@rag/api-contract/enums'
import type { ClaimGrant } from '@rag/config'

/** The values a claim holds: a list (groups), one string (an e-mail, a domain), else none. */
export function claimValues(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim]
  if (Array.isArray(claim)) return claim.filter((value): value is string => typeof value === 'string')
  return []
}

/**
 * The role and collections a person's claim values grant: the highest role of the matching
 * grants and all their collections (null when one of them grants every collection); null when
 * none matches (deny by default: a person the mapping does not name does not get in).
 */
export function grantsFor(
  values: string[],
  grants: ClaimGrant[],
): { role: Role; collections: string[] | null } | null {
  const matching = grants.filter((grant) => values.includes(grant.value))
  if (matching.length === 0) return null
  const role = matching.reduce<Role>(
    (best, grant) => (ROLES.indexOf(grant.role) > ROLES.indexOf(best) ? grant.role : best),
    'reader',
  )
  const collections = matching.some((grant) => grant.collections === null)
    ? null
    : [...new Set(matching.flatMap((grant) => grant.collections ?? []))].sort()
  return { role, collections }
}
