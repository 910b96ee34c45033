export {
  type ApiKeyRecord,
  createApiKey,
  hashKey,
  listApiKeys,
  principalOfKey,
  principalOfKeyHash,
  revokeApiKey,
} from './api-keys.ts'
export {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditEntry,
  listAudit,
  pruneAudit,
  recordAudit,
} from './audit-log.ts'
export {
  type CollectionRecord,
  collectionExists,
  createCollection,
  listCollections,
  unknownCollections,
} from './collections.ts'
export {
  createKeySession,
  endKeySession,
  KEY_SESSION_HOURS,
  KEY_SESSION_PREFIX,
  type KeySession,
  keySessionOf,
  pruneKeySessions,
} from './key-sessions.ts'
export {
  BOOTSTRAP_ADMIN,
  canSee,
  credentialOf,
  hasRole,
  LOCAL_ADMIN,
  type Principal,
} from './principal.ts'
export { type SignInRequest, saveSignInRequest, takeSignInRequest } from './sign-in-requests.ts'
export {
  createUserSession,
  endUserSession,
  endUserSessionById,
  listUserSessions,
  principalOfSession,
  pruneUserSessions,
  SESSION_PREFIX,
  type SignedInUser,
  type UserSessionRecord,
} from './user-sessions.ts'
