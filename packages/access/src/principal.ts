import { ROLES, type Role } from '@rag/api-contract/enums'

/** Who a request acts as: a key of the table, the bootstrap key(s) of API_KEY, or the local user. */
export interface Principal {
  /** What the audit log and ownership name: `key:<id>`, `bootstrap`, `local`. Never a key. */
  id: string
  name: string
  role: Role
  /** The collections it may see; null: every one. */
  collections: string[] | null
  /**
   * What a revocation ends, when it is not `id`: a person's sign-in session (`session:<id>`), while
   * `id` (`user:<subject>`) names the person in the audit log across sessions.
   */
  credential?: string
  /**
   * The browser sign-in it came through (a key session or a person's session): what the web app
   * binds its requests to, so a cookie replaced from another port is refused, not obeyed.
   */
  session?: string
  /**
   * Whose things it owns and counts against, when not the presented token's fingerprint: a key
   * signed in through a browser owns what the key owns (`key:<fingerprint of the key>`).
   */
  owner?: string
}

/** The name revocations use: the key, or the sign-in session. */
export const credentialOf = (principal: Principal) => principal.credential ?? principal.id

/** The gateway without keys (loopback only), and the API_KEY(S) of the environment: everything. */
export const LOCAL_ADMIN: Principal = { id: 'local', name: 'local', role: 'admin', collections: null }
export const BOOTSTRAP_ADMIN: Principal = {
  id: 'bootstrap',
  name: 'API_KEY',
  role: 'admin',
  collections: null,
}

/** Whether a role includes what `need` may do. */
export const hasRole = (role: Role, need: Role) => ROLES.indexOf(role) >= ROLES.indexOf(need)

export const canSee = (principal: Principal, collection: string) =>
  principal.collections === null || principal.collections.includes(collection)
