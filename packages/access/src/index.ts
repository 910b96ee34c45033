export {
  type ApiKeyRecord,
  createApiKey,
  hashKey,
  listApiKeys,
  principalOfKey,
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
  BOOTSTRAP_ADMIN,
  canSee,
  hasRole,
  LOCAL_ADMIN,
  type Principal,
  readableCollections,
} from './principal.ts'
